import { describe, expect, it } from "vitest";
import { operations } from "../src/core/operations.js";
import { createWorkspace } from "./support/workspace.js";

/**
 * Bad input never yields a 500, but a 4xx naming the field: every operation of the
 * registry receives malformed bodies, queries and path parameters, on real objects and on
 * missing ones, and must answer a 4xx (or a success, where the input happens to be acceptable).
 */
const BAD_BODIES: unknown[] = [
  null,
  [],
  "text",
  42,
  { title: 12, name: [], body: { markdown: 5 }, role: "emperor", parent: {}, position: "first" },
  { title: "x".repeat(5000), markdown: null, emails: "a@b.c", organization: 7, spaceId: null },
  { status: "merged", resolved: "yes", addedReactions: [1], data: "%%%", contentType: "image" },
  { template: { id: 5 }, params: { contentRefs: { x: { kind: "url" } } }, only: "maybe" },
];
const BAD_QUERIES = [
  "limit=-5",
  "limit=abc",
  "page=%%%",
  "page=x",
  "format=pdf",
  "order=up",
  "query=",
  "nested=perhaps",
];

describe("robustness", () => {
  it("answers every operation's malformed input with a 4xx, never a 500", async () => {
    const w = await createWorkspace();
    const space = await w.space({ title: "Fuzzed" });
    const spaceId = space;
    const page = (await w.client.createPage({ spaceId, body: { title: "P", markdown: "x" } })).id;
    const cr = (await w.client.createChangeRequest({ spaceId, body: { subject: "S" } })).id;
    const collection = await w.collection({ title: "C" });
    const comment = (await w.client.postCommentInSpace({ spaceId, body: { body: { markdown: "c" } } })).id;
    const real: Record<string, string> = {
      organizationId: w.org,
      spaceId: space,
      pageId: page,
      changeRequestId: cr,
      collectionId: collection,
      commentId: comment,
      userId: "nobody",
    };
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const operation of Object.values(operations)) {
      for (const ids of [real, {} as Record<string, string>]) {
        const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(ids[name] ?? "%00-missing"),
        );
        const attempts: { query: string; body?: unknown }[] = BAD_QUERIES.map((query) => ({ query }));
        if (operation.body) attempts.push(...BAD_BODIES.map((body) => ({ query: "", body })));
        for (const attempt of attempts) {
          const response = await w.test.request(operation.method.toUpperCase(), `${path}?${attempt.query}`, {
            token: w.owner.token,
            ...(attempt.body !== undefined ? { body: JSON.stringify(attempt.body) } : {}),
          });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500) {
            failures.push(
              `${operation.id} ${attempt.query} ${JSON.stringify(attempt.body)} -> ${response.status}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The input reached validation and the operations, not only authentication.
    expect(statuses.get(400)).toBeGreaterThan(500);
    expect(statuses.get(200)).toBeGreaterThan(50);
  });
});
