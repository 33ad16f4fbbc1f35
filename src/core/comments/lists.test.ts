import { describe, expect, it } from "vitest";
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
  const { api, member } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const pageA = (await api("POST", `/spaces/${spaceId}/content/pages`, { title: "A" })).body.id as string;
  const pageB = (await api("POST", `/spaces/${spaceId}/content/pages`, { title: "B" })).body.id as string;
  const cr = (await api("POST", `/spaces/${spaceId}/change-requests`, {})).body;
  const authors = [Object.assign(api, { userId: "" }), await member("comment"), await member("edit")];
  authors[0]!.userId = (await api("GET", "/user")).body.id;
  const threads: Record<string, { path: string; posted: Posted[] }> = {};
  for (const [name, path] of [
    ["space", `/spaces/${spaceId}`],
    ["change request", `/spaces/${spaceId}/change-requests/${cr.id}`],
  ] as const) {
    const posted: Posted[] = [];
    for (let i = 0; i < 12; i++) {
      const as = authors[i % 3]!;
      const page = [pageA, pageB, ""][Math.floor(i / 2) % 3]!;
      const { body } = await as("POST", `${path}/comments`, {
        ...(page ? { page } : {}),
        body: { markdown: `#${i}` },
      });
      const status = i % 4 === 1 ? "resolved" : "open";
      if (status === "resolved") await api("PUT", `${path}/comments/${body.id}`, { resolved: true });
      posted.push({ id: body.id, author: as.userId, page, status });
    }
    threads[name] = { path, posted };
  }
  return { ...workspace, pageA, pageB, authors: authors.map((as) => as.userId), threads };
}

/** Every id of a list, walking `next.page` with `limit`, and the count each page reported. */
async function walk(api: Awaited<ReturnType<typeof setup>>["api"], path: string, limit: number) {
  const ids: string[] = [];
  const counts = new Set<number>();
  let page: string | undefined;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const answer = await api("GET", `${path}${separator}limit=${limit}${page ? `&page=${page}` : ""}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    ids.push(...answer.body.items.map((item: { id: string }) => item.id));
    counts.add(answer.body.count);
    page = answer.body.next?.page;
  } while (page);
  return { ids, counts: [...counts] };
}

describe("comment lists", () => {
  it("holds every combination of order, status, target page and authors across pages", async () => {
    const { api, threads, pageA, pageB, authors } = await setup();
    for (const { path, posted } of Object.values(threads)) {
      for (const order of [undefined, "asc", "desc"] as const) {
        for (const status of [undefined, "all", "open", "resolved"] as const) {
          for (const page of [undefined, pageA, pageB]) {
            for (const who of [undefined, [authors[1]!], [authors[0]!, authors[2]!]]) {
              const query = new URLSearchParams();
              if (order) query.set("order", order);
              if (status) query.set("status", status);
              if (page) query.set("targetPage", page);
              for (const id of who ?? []) query.append("authors", id);
              let expected = posted.filter(
                (comment) =>
                  (!status || status === "all" || comment.status === status) &&
                  (!page || comment.page === page) &&
                  (!who || who.includes(comment.author)),
              );
              if (order !== "asc") expected = [...expected].reverse();
              const { ids, counts } = await walk(api, `${path}/comments?${query}`, 2);
              const label = `${path} ${query}`;
              expect(ids, label).toEqual(expected.map((comment) => comment.id));
              expect(counts, label).toEqual([expected.length]);
            }
          }
        }
      }
    }
  });

  it("keeps later pages stable when comments are posted or resolved between requests", async () => {
    const { api, threads } = await setup();
    const { path, posted } = threads["space"]!;
    const first = await api("GET", `${path}/comments?status=open&order=asc&limit=3`);
    const open = posted.filter((comment) => comment.status === "open");
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual(
      open.slice(0, 3).map((c) => c.id),
    );
    // A new open comment comes last; resolving one already seen does not shift the rest.
    const { body: late } = await api("POST", `${path}/comments`, { body: { markdown: "late" } });
    await api("PUT", `${path}/comments/${open[0]!.id}`, { resolved: true });
    const second = await api(
      "GET",
      `${path}/comments?status=open&order=asc&limit=3&page=${first.body.next.page}`,
    );
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(
      open.slice(3, 6).map((c) => c.id),
    );
    expect(second.body.count).toBe(open.length);
    const { ids } = await walk(api, `${path}/comments?status=open&order=asc`, 100);
    expect(ids.at(-1)).toBe(late.id);
  });

  it("refuses a page token replayed on another list", async () => {
    const { api, threads } = await setup();
    const { path } = threads["space"]!;
    const { body } = await api("GET", `${path}/comments?limit=2`);
    for (const other of ["order=asc", "status=open", `targetPage=x`]) {
      const replayed = await api("GET", `${path}/comments?limit=2&${other}&page=${body.next.page}`);
      expect(replayed.status, other).toBe(400);
    }
    const crPath = threads["change request"]!.path;
    expect((await api("GET", `${crPath}/comments?limit=2&page=${body.next.page}`)).status).toBe(400);
    expect((await api("GET", `${path}/comments?limit=0`)).body).toEqual({ count: 12, items: [] });
  });
});
