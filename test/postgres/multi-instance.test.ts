import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../support/postgres.js";
import { ApiClient, buildCli, ServeProcesses, type Answer } from "../support/serve-process.js";

/**
 * Issue 10, "Show": three `docsbase serve --postgres` processes on one database, sharing nothing but
 * it, take interleaved writes from concurrent clients (each request goes to the next instance in
 * turn): change requests created in one space at once, page edits live and in change requests,
 * comments, replies, resolutions and merges. Afterwards, read from other instances than the
 * writers: change-request numbers are 1..N, every stored counter equals a recount of what the API
 * lists, every acknowledged write is there, and list cursors hop between instances.
 */

const ADMIN_TOKEN = "dbt_multi_instance_operator_token_0123";
const INSTANCES = 3;
const USERS = 5;
/** Change requests created in the first burst, all at once. */
const FIRST_BURST = 40;
/** Steps of each client in the mixed phase. */
const STEPS = 30;

/** A write the API acknowledged, and which instance took it. */
interface Acked {
  readonly via: number;
}
interface ChangeRequestWrite extends Acked {
  readonly id: string;
  readonly number: number;
  status: "open" | "draft" | "merged";
  /** The page created inside it, with its markdown. */
  page?: { id: string; title: string; markdown: string };
}
interface CommentWrite extends Acked {
  readonly id: string;
  /** `""` for the space's thread, else the change request's id. */
  readonly changeRequest: string;
  resolved: boolean;
  readonly replies: string[];
}

describe("three instances on one PostgreSQL database", () => {
  let cli: Awaited<ReturnType<typeof buildCli>> | undefined;
  let processes: ServeProcesses | undefined;
  let urls: string[] = [];

  beforeAll(async () => {
    let url: string;
    [url, cli] = await Promise.all([freshDatabase("multi"), buildCli()]);
    processes = new ServeProcesses([cli.script]);
    // Started at once: concurrent init and bootstrap of one empty database.
    const servers = await Promise.all(
      Array.from({ length: INSTANCES }, () =>
        processes!.start(["--postgres", url, "--pool-size", "4", "--no-rate-limit"], {
          DOCSBASE_ADMIN_TOKEN: ADMIN_TOKEN,
        }),
      ),
    );
    urls = servers.map((server) => server.url);
  });
  afterAll(async () => {
    await processes?.killAll();
    cli?.remove();
  });

  it(
    "keeps numbers, counters, writes and cursors exact under interleaved writes",
    { timeout: 90_000 },
    async () => {
      let turn = 0;
      const failures: string[] = [];
      /** One caller; each request goes to the next instance in turn. */
      const caller = (token: string) => {
        const clients = urls.map((url) => new ApiClient(url, token));
        return {
          /** A write on the next instance: its answer, and the instance, when it is a 2xx. */
          async write(method: string, path: string, body?: unknown): Promise<(Answer & Acked) | undefined> {
            const via = turn++ % INSTANCES;
            const answer = await clients[via]!.send(method, path, body);
            if (answer.status >= 300) {
              failures.push(`${method} ${path} on ${via}: ${answer.status} ${JSON.stringify(answer.body)}`);
              return undefined;
            }
            return { ...answer, via };
          },
          /** A read on instance `on`; throws unless 200. */
          async read(on: number, path: string): Promise<any> {
            const answer = await clients[on % INSTANCES]!.send("GET", path);
            if (answer.status !== 200) throw new Error(`GET ${path} on ${on}: ${answer.status}`);
            return answer.body;
          },
          /** The status of a GET on instance `on`. */
          status: async (on: number, path: string) =>
            (await clients[on % INSTANCES]!.send("GET", path)).status,
          listAll: (on: number, path: string) => clients[on % INSTANCES]!.listAll(path),
          send: (on: number, method: string, path: string, body?: unknown) =>
            clients[on % INSTANCES]!.send(method, path, body),
        };
      };
      const operator = caller(ADMIN_TOKEN);
      const must = async (pending: Promise<(Answer & Acked) | undefined>) => {
        const answer = await pending;
        if (!answer) throw new Error(`Setup failed: ${failures.join("\n")}`);
        return answer;
      };

      // Setup: an organization everyone on its email domain joins as admin, and users who join it
      // through different instances at once.
      const org = (await must(operator.write("POST", "/orgs", { title: "Many instances" }))).body
        .id as string;
      await must(
        operator.write("PATCH", `/orgs/${org}`, { emailDomains: ["multi.test"], defaultRole: "admin" }),
      );
      const users = await Promise.all(
        Array.from({ length: USERS }, async (_, n) => {
          const user = (
            await must(
              operator.write("POST", "/users", { displayName: `User ${n}`, email: `u${n}@multi.test` }),
            )
          ).body;
          const token = (await must(operator.write("POST", `/users/${user.id}/tokens`, {}))).body
            .token as string;
          const client = caller(token);
          await must(client.write("POST", `/orgs/${org}/join`));
          return { id: user.id as string, client };
        }),
      );
      const clients = [operator, ...users.map((user) => user.client)];
      const space = (await must(operator.write("POST", `/orgs/${org}/spaces`, { title: "Shared" }))).body
        .id as string;
      const at = `/spaces/${space}`;
      /** Pages of the live space, one owner each, with the last markdown acknowledged. */
      const owned = await Promise.all(
        clients.map(async (client, n) => {
          const markdown = `Owned by client ${n}, version 0`;
          const page = await must(
            client.write("POST", `${at}/content/pages`, { title: `Owned ${n}`, markdown }),
          );
          return { id: page.body.id as string, markdown, via: page.via };
        }),
      );

      const changeRequests: ChangeRequestWrite[] = [];
      const comments: CommentWrite[] = [];
      const livePages: { id: string; title: string; markdown: string; via: number }[] = [];

      const createChangeRequest = async (client: (typeof clients)[number], n: number) => {
        const status = n % 4 === 0 ? "draft" : "open";
        const answer = await client.write("POST", `${at}/change-requests`, { subject: `CR ${n}`, status });
        if (answer)
          changeRequests.push({ id: answer.body.id, number: answer.body.number, status, via: answer.via });
      };

      // Burst: change requests created at once, through every instance.
      await Promise.all(
        Array.from({ length: FIRST_BURST }, (_, n) => createChangeRequest(clients[n % clients.length]!, n)),
      );

      // Mixed phase: every client at once, each request on the next instance.
      const pick = <T>(items: readonly T[], seed: number): T | undefined =>
        items[seed % Math.max(1, items.length)];
      await Promise.all(
        clients.map(async (client, c) => {
          for (let step = 0; step < STEPS; step++) {
            const seed = c * 7 + step * 13;
            switch (step % 6) {
              case 0: {
                // Content inside a change request (one page each), then maybe its merge.
                const cr = changeRequests.find((item) => !item.page && item.status !== "merged");
                if (!cr) break;
                const title = `In CR ${cr.number}`;
                cr.page = { id: "", title, markdown: `Written in change request ${cr.number}` };
                const page = await client.write("POST", `${at}/change-requests/${cr.id}/content/pages`, {
                  title,
                  markdown: cr.page.markdown,
                });
                if (!page) cr.page = undefined;
                else cr.page.id = page.body.id;
                if (page && cr.status === "open" && cr.number % 2 === 0) {
                  const merged = await client.write("POST", `${at}/change-requests/${cr.id}/merge`);
                  if (merged?.body.result === "merge") cr.status = "merged";
                  else if (merged) failures.push(`merge of #${cr.number}: ${JSON.stringify(merged.body)}`);
                }
                break;
              }
              case 1: {
                const markdown = `Owned by client ${c}, version ${step}`;
                const answer = await client.write("PATCH", `${at}/content/page/${owned[c]!.id}`, {
                  markdown,
                });
                if (answer) Object.assign(owned[c]!, { markdown, via: answer.via });
                break;
              }
              case 2: {
                const cr = pick(changeRequests, seed);
                const thread = step % 4 === 2 && cr ? cr.id : "";
                const path = thread ? `${at}/change-requests/${thread}/comments` : `${at}/comments`;
                const answer = await client.write("POST", path, {
                  body: { markdown: `Comment ${c}.${step}` },
                });
                if (answer)
                  comments.push({
                    id: answer.body.id,
                    changeRequest: thread,
                    resolved: false,
                    replies: [],
                    via: answer.via,
                  });
                break;
              }
              case 3: {
                const comment = pick(comments, seed);
                if (!comment) break;
                const prefix = comment.changeRequest ? `${at}/change-requests/${comment.changeRequest}` : at;
                const answer = await client.write("POST", `${prefix}/comments/${comment.id}/replies`, {
                  body: { markdown: `Reply ${c}.${step}` },
                });
                if (answer) comment.replies.push(answer.body.id);
                break;
              }
              case 4: {
                await createChangeRequest(client, FIRST_BURST + c * STEPS + step);
                const comment = pick(comments, seed + 1);
                if (comment && !comment.resolved) {
                  const prefix = comment.changeRequest
                    ? `${at}/change-requests/${comment.changeRequest}`
                    : at;
                  const answer = await client.write("PUT", `${prefix}/comments/${comment.id}`, {
                    resolved: true,
                  });
                  if (answer) comment.resolved = true;
                }
                break;
              }
              case 5: {
                const title = `Live ${c}.${step}`;
                const markdown = `Created live by client ${c} at step ${step}`;
                const answer = await client.write("POST", `${at}/content/pages`, { title, markdown });
                if (answer) livePages.push({ id: answer.body.id, title, markdown, via: answer.via });
                break;
              }
            }
          }
        }),
      );
      // Merges of several change requests at once, from every instance, beside more comments.
      await Promise.all([
        ...changeRequests
          .filter((cr) => cr.page && cr.status === "open")
          .slice(0, 6)
          .map(async (cr, n) => {
            const merged = await clients[n % clients.length]!.write(
              "POST",
              `${at}/change-requests/${cr.id}/merge`,
            );
            if (merged?.body.result === "merge") cr.status = "merged";
            else if (merged) failures.push(`merge of #${cr.number}: ${JSON.stringify(merged.body)}`);
          }),
        ...clients.map(async (client, c) => {
          const answer = await client.write("POST", `${at}/comments`, {
            body: { markdown: `Late comment ${c}` },
          });
          if (answer)
            comments.push({
              id: answer.body.id,
              changeRequest: "",
              resolved: false,
              replies: [],
              via: answer.via,
            });
        }),
      ]);
      expect(failures).toEqual([]);

      // Change-request numbers: unique and contiguous, each the one its creation answered.
      const statuses = ["open", "draft", "merged", "archived"] as const;
      const listed = (
        await Promise.all(
          statuses.map((status, n) => operator.listAll(n, `${at}/change-requests?status=${status}`)),
        )
      ).flat();
      expect(listed.map((cr) => cr.number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: changeRequests.length }, (_, n) => n + 1),
      );
      const byId = new Map(listed.map((cr) => [cr.id as string, cr]));
      for (const cr of changeRequests) {
        expect(byId.get(cr.id)).toMatchObject({ number: cr.number, status: cr.status });
        const got = await operator.read(cr.via + 1, `${at}/change-requests/${cr.number}`);
        expect(got).toMatchObject({ id: cr.id, status: cr.status });
      }

      // Every counter equals a recount.
      const counted = async (on: number, path: string) => (await operator.read(on, path)).count as number;
      const spaceRecord = await operator.read(1, at);
      const recount = async (path: string) => {
        const items = await operator.listAll(2, path);
        expect(await counted(0, `${path}${path.includes("?") ? "&" : "?"}limit=0`)).toBe(items.length);
        return items;
      };
      expect(spaceRecord).toMatchObject({
        changeRequests: changeRequests.length,
        changeRequestsOpen: (await recount(`${at}/change-requests?status=open`)).length,
        changeRequestsDraft: (await recount(`${at}/change-requests?status=draft`)).length,
        comments: (await recount(`${at}/comments?status=open`)).length,
      });
      for (const cr of changeRequests) {
        const open = await recount(`${at}/change-requests/${cr.id}/comments?status=open`);
        expect(byId.get(cr.id)?.comments).toBe(open.length);
      }
      const members = await recount(`/orgs/${org}/members`);
      expect(members.map((member) => member.id).sort()).toEqual(
        [...users.map((user) => user.id), (await operator.read(0, "/user")).id].sort(),
      );
      // Every member is an admin: `spaces` counts the organization's live spaces.
      const spaces = await recount(`/orgs/${org}/spaces`);
      for (const member of members) expect(member.spaces).toBe(spaces.length);

      // Every acknowledged write is there, read on another instance than the one that took it.
      expect(changeRequests.length).toBeGreaterThan(FIRST_BURST);
      expect(changeRequests.filter((cr) => cr.status === "merged").length).toBeGreaterThan(2);
      for (const comment of comments) {
        const prefix = comment.changeRequest ? `${at}/change-requests/${comment.changeRequest}` : at;
        const got = await operator.read(comment.via + 1, `${prefix}/comments/${comment.id}`);
        expect(got).toMatchObject({
          status: comment.resolved ? "resolved" : "open",
          replies: comment.replies.length,
        });
        const replies = await operator.listAll(comment.via + 2, `${prefix}/comments/${comment.id}/replies`);
        expect(replies.map((reply) => reply.id).sort()).toEqual([...comment.replies].sort());
        const repliers = (got.repliers as { count: number }[]).reduce(
          (sum, replier) => sum + replier.count,
          0,
        );
        expect(repliers).toBe(comment.replies.length);
      }
      const pageOf = (on: number, prefix: string, id: string) =>
        operator.read(on, `${prefix}/page/${id}?format=markdown`);
      for (const page of [...owned, ...livePages]) {
        expect(await pageOf(page.via + 1, `${at}/content`, page.id)).toMatchObject({
          markdown: page.markdown,
        });
      }
      for (const cr of changeRequests.filter((item) => item.page)) {
        const inCr = await pageOf(cr.via + 1, `${at}/change-requests/${cr.id}/content`, cr.page!.id);
        expect(inCr).toMatchObject({ title: cr.page!.title, markdown: cr.page!.markdown });
        const live = await operator.status(cr.via + 2, `${at}/content/page/${cr.page!.id}`);
        expect(live).toBe(cr.status === "merged" ? 200 : 404);
      }

      // A cursor taken on one instance finishes on the others, every item once, in order, while
      // comments are still being posted between the pages (keyset pages: they come after).
      const before = await operator.listAll(0, `${at}/comments?order=asc`);
      const seen: string[] = [];
      let posted = 0;
      let page: string | undefined;
      for (let hop = 0; ; hop++) {
        const query = `order=asc&limit=3${page ? `&page=${encodeURIComponent(page)}` : ""}`;
        const body = await operator.read(hop, `${at}/comments?${query}`);
        seen.push(...(body.items as { id: string }[]).map((item) => item.id));
        page = body.next?.page;
        if (!page) break;
        const answer = await operator.send(hop + 1, "POST", `${at}/comments`, {
          body: { markdown: `During page ${hop}` },
        });
        expect(answer.status).toBe(200);
        posted++;
      }
      expect(posted).toBeGreaterThan(2);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(0, before.length)).toEqual(before.map((item) => item.id));
      expect(seen.length).toBe(before.length + posted);
      const crCursor: string[] = [];
      page = undefined;
      for (let hop = 0; ; hop++) {
        const query = `status=open&limit=3${page ? `&page=${encodeURIComponent(page)}` : ""}`;
        const body = await operator.read(hop + 1, `${at}/change-requests?${query}`);
        crCursor.push(...(body.items as { id: string }[]).map((item) => item.id));
        page = body.next?.page;
        if (!page) break;
      }
      expect(crCursor).toEqual(
        (await operator.listAll(0, `${at}/change-requests?status=open`)).map((cr) => cr.id),
      );
    },
  );
});
