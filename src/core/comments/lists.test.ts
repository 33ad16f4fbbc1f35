import { describe, expect, it } from "vitest";
import { commentThread, type CommentThread, type ThreadId } from "../../../test/support/comment-threads.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { CommentStatus } from "./tables.js";

interface Posted {
  id: string;
  author: string;
  page: string;
  status: CommentStatus;
}

/**
 * Twelve comments in each thread, on two pages or none, by three authors, some resolved, all at
 * the same instant (order must come from insertion, not from timestamps).
 */
async function setup() {
  const workspace = await createWorkspace();
  const { client, member, owner } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const pageA = (await client.createPage({ spaceId, body: { title: "A" } })).id;
  const pageB = (await client.createPage({ spaceId, body: { title: "B" } })).id;
  const cr = await client.createChangeRequest({ spaceId, body: {} });
  const authors = [{ client, userId: owner.id }, await member("comment"), await member("edit")];
  const threads: Record<string, { thread: ThreadId; posted: Posted[] }> = {};
  for (const [name, thread] of [
    ["space", { spaceId }],
    ["change request", { spaceId, changeRequestId: cr.id }],
  ] as const) {
    const posted: Posted[] = [];
    for (let i = 0; i < 12; i++) {
      const as = authors[i % 3]!;
      const page = [pageA, pageB, ""][Math.floor(i / 2) % 3]!;
      const { id } = await commentThread(as.client, thread).post({
        ...(page ? { page } : {}),
        body: { markdown: `#${i}` },
      });
      const status = i % 4 === 1 ? "resolved" : "open";
      if (status === "resolved") await commentThread(client, thread).update(id, { resolved: true });
      posted.push({ id, author: as.userId, page, status });
    }
    threads[name] = { thread, posted };
  }
  return { ...workspace, pageA, pageB, authors: authors.map((as) => as.userId), threads };
}

type ListQuery = NonNullable<Parameters<CommentThread["list"]>[0]>;

/** Every id of a list, walking `next.page` with `limit`, and the count each page reported. */
async function walk(thread: CommentThread, query: ListQuery, limit: number) {
  const ids: string[] = [];
  const counts = new Set<number>();
  let page: string | undefined;
  do {
    const list = await thread.list({ ...query, limit, ...(page ? { page } : {}) });
    ids.push(...list.items.map((item) => item.id));
    counts.add(list.count);
    page = list.next?.page;
  } while (page);
  return { ids, counts: [...counts] };
}

describe("comment lists", () => {
  it("holds every combination of order, status, target page and authors across pages", async () => {
    const { client, threads, pageA, pageB, authors } = await setup();
    for (const [name, { thread, posted }] of Object.entries(threads)) {
      for (const order of [undefined, "asc", "desc"] as const) {
        for (const status of [undefined, "all", "open", "resolved"] as const) {
          for (const page of [undefined, pageA, pageB]) {
            for (const who of [undefined, [authors[1]!], [authors[0]!, authors[2]!]]) {
              // One author as one value, several as a list, as a query string has them.
              const query: ListQuery = {
                ...(order ? { order } : {}),
                ...(status ? { status } : {}),
                ...(page ? { targetPage: page } : {}),
                ...(who ? { authors: who.length === 1 ? who[0]! : who } : {}),
              };
              let expected = posted.filter(
                (comment) =>
                  (!status || status === "all" || comment.status === status) &&
                  (!page || comment.page === page) &&
                  (!who || who.includes(comment.author)),
              );
              if (order !== "asc") expected = [...expected].reverse();
              const { ids, counts } = await walk(commentThread(client, thread), query, 2);
              const label = `${name} ${JSON.stringify(query)}`;
              expect(ids, label).toEqual(expected.map((comment) => comment.id));
              expect(counts, label).toEqual([expected.length]);
            }
          }
        }
      }
    }
  });

  it("keeps later pages stable when comments are posted or resolved between requests", async () => {
    const { client, threads } = await setup();
    const { thread: id, posted } = threads["space"]!;
    const thread = commentThread(client, id);
    const first = await thread.list({ status: "open", order: "asc", limit: 3 });
    const open = posted.filter((comment) => comment.status === "open");
    expect(first.items.map((item) => item.id)).toEqual(open.slice(0, 3).map((c) => c.id));
    // A new open comment comes last; resolving one already seen does not shift the rest.
    const late = await thread.post({ body: { markdown: "late" } });
    await thread.update(open[0]!.id, { resolved: true });
    const second = await thread.list({ status: "open", order: "asc", limit: 3, page: first.next!.page });
    expect(second.items.map((item) => item.id)).toEqual(open.slice(3, 6).map((c) => c.id));
    expect(second.count).toBe(open.length);
    const { ids } = await walk(thread, { status: "open", order: "asc" }, 100);
    expect(ids.at(-1)).toBe(late.id);
  });

  it("refuses a page token replayed on another list", async () => {
    const { client, threads } = await setup();
    const thread = commentThread(client, threads["space"]!.thread);
    const { next } = await thread.list({ limit: 2 });
    const page = next!.page;
    for (const other of [{ order: "asc" }, { status: "open" }, { targetPage: "x" }] as const) {
      await expect(thread.list({ limit: 2, ...other, page }), JSON.stringify(other)).rejects.toMatchObject({
        code: "bad_request",
      });
    }
    const cr = commentThread(client, threads["change request"]!.thread);
    await expect(cr.list({ limit: 2, page })).rejects.toMatchObject({ code: "bad_request" });
    expect(await thread.list({ limit: 0 })).toEqual({ count: 12, items: [] });
  });
});
