import { describe, expect, it } from "vitest";
import { MAX_COMMENT_LENGTH } from "../src/core/comments/schemas.js";
import { LARGE_ITEMS_PAGE_CHARS } from "../src/core/shared/pagination.js";
import { createWorkspace, type Requester } from "./support/workspace.js";

/**
 * Issue 28, item 3, beyond integrations: lists whose items each hold a document (comments, their
 * replies and reviews: 100,000 characters of markdown each; change requests: a description of
 * 500,000 characters of JSON) end a page at LARGE_ITEMS_PAGE_CHARS of JSON, with `next`, whatever `limit`
 * asks, so one member's large posts cannot make a page every reader of the space loads unbounded.
 */

/** Every item of a list through its `next` links, checking each page's size. */
async function readAll(api: Requester, path: string): Promise<{ pages: number; ids: string[] }> {
  const ids: string[] = [];
  let pages = 0;
  let page: string | undefined;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const answer = await api("GET", `${path}${page ? `${separator}page=${encodeURIComponent(page)}` : ""}`);
    expect(answer.status).toBe(200);
    // One item may pass the budget alone; a page of several never does.
    const items = answer.body.items as { id: string }[];
    if (items.length > 1)
      expect(JSON.stringify(items).length).toBeLessThanOrEqual(LARGE_ITEMS_PAGE_CHARS + 2);
    ids.push(...items.map((item) => item.id));
    page = answer.body.next?.page;
    pages++;
  } while (page);
  return { pages, ids };
}

describe("lists of documents", () => {
  it("end a page of comments, replies or change requests at the character budget", async () => {
    const w = await createWorkspace();
    const spaceId = await w.space({ title: "Docs" });
    const markdown = "x".repeat(MAX_COMMENT_LENGTH);
    const count = Math.ceil(LARGE_ITEMS_PAGE_CHARS / MAX_COMMENT_LENGTH) + 1;
    const comments: string[] = [];
    for (let i = 0; i < count; i++) {
      comments.push((await w.client.postCommentInSpace({ spaceId, body: { body: { markdown } } })).id);
    }
    const listed = await readAll(w.api, `/spaces/${spaceId}/comments?limit=1000`);
    expect(listed.pages).toBeGreaterThan(1);
    expect(listed.ids.sort()).toEqual([...comments].sort());

    const commentId = comments[0]!;
    const replies: string[] = [];
    for (let i = 0; i < count; i++) {
      replies.push(
        (await w.client.postCommentReplyInSpace({ spaceId, commentId, body: { body: { markdown } } })).id,
      );
    }
    const repliesListed = await readAll(w.api, `/spaces/${spaceId}/comments/${commentId}/replies?limit=1000`);
    expect(repliesListed.pages).toBeGreaterThan(1);
    expect(repliesListed.ids.sort()).toEqual([...replies].sort());

    const text = "y".repeat(400_000);
    const description = {
      object: "document" as const,
      data: {},
      nodes: [
        {
          object: "block" as const,
          type: "paragraph" as const,
          nodes: [{ object: "text" as const, leaves: [{ object: "leaf" as const, text, marks: [] }] }],
        },
      ],
    };
    const changeRequests: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await w.client.createChangeRequest({ spaceId, body: { subject: `Edit ${i}` } });
      await w.client.updateChangeRequestById({ spaceId, changeRequestId: created.id, body: { description } });
      changeRequests.push(created.id);
    }
    for (const path of [`/spaces/${spaceId}/change-requests`, `/orgs/${w.org}/change-requests`]) {
      const all = await readAll(w.api, `${path}?limit=1000`);
      expect(all.pages, path).toBeGreaterThan(1);
      expect(all.ids.sort(), path).toEqual([...changeRequests].sort());
    }
  });

  it("end a page of change request reviews at the character budget", async () => {
    const w = await createWorkspace();
    const spaceId = await w.space({ title: "Docs" });
    const reviewer = await w.member("review");
    const changeRequestId = (await w.client.createChangeRequest({ spaceId, body: { subject: "Edit" } })).id;
    const markdown = "x".repeat(MAX_COMMENT_LENGTH);
    const count = Math.ceil(LARGE_ITEMS_PAGE_CHARS / MAX_COMMENT_LENGTH) + 1;
    const reviews: string[] = [];
    for (let i = 0; i < count; i++) {
      const review = await reviewer.client.submitChangeRequestReview({
        spaceId,
        changeRequestId,
        body: { status: "changes-requested", comment: { markdown } },
      });
      reviews.push(review.id);
    }
    const all = await readAll(
      w.api,
      `/spaces/${spaceId}/change-requests/${changeRequestId}/reviews?limit=1000`,
    );
    expect(all.pages).toBeGreaterThan(1);
    expect(all.ids.sort()).toEqual([...reviews].sort());
  });

  it("end a page of spaces or organizations, whose merge rules may be megabytes, at the budget", async () => {
    const w = await createWorkspace();
    // 30 rules of 1000 user ids: about 660,000 characters of merge rules.
    const users = Array.from({ length: 1000 }, (_, i) => `user-${String(i).padStart(12, "0")}`);
    const mergeRules = {
      type: "rules" as const,
      rules: Array.from({ length: 30 }, () => ({ rule: "allow_bypass" as const, users })),
    };
    const collectionId = await w.collection({ title: "Guides" });
    const guest = await w.member(null);
    const spaces: string[] = [];
    for (let i = 0; i < 3; i++) {
      const spaceId = await w.space({ title: `Space ${i}`, parent: collectionId });
      await w.client.updateSpaceById({ spaceId, body: { mergeRules } });
      await w.client.inviteToSpace({ spaceId, body: { role: "read", users: [guest.userId] } });
      spaces.push(spaceId);
    }
    for (const [api, path] of [
      [w.api, `/orgs/${w.org}/spaces?limit=1000`],
      [guest, `/orgs/${w.org}/spaces?limit=1000`],
      [w.api, `/collections/${collectionId}/spaces?limit=1000`],
    ] as const) {
      const all = await readAll(api, path);
      expect(all.pages, path).toBeGreaterThan(1);
      expect(all.ids.sort(), path).toEqual([...spaces].sort());
    }

    const organizations = [w.org];
    for (let i = 0; i < 2; i++) organizations.push(await w.organization(`Org ${i}`));
    for (const organizationId of organizations) {
      await w.client.updateOrganizationById({ organizationId, body: { mergeRules } });
    }
    const all = await readAll(w.api, "/orgs?limit=1000");
    expect(all.pages).toBeGreaterThan(1);
    expect(all.ids.sort()).toEqual([...organizations].sort());
  });

  it("answer pages within the budget as before: next only when items remain", async () => {
    const w = await createWorkspace();
    const spaceId = await w.space({ title: "Docs" });
    for (const markdown of ["One", "Two"]) {
      await w.client.postCommentInSpace({ spaceId, body: { body: { markdown } } });
    }
    const whole = await w.api("GET", `/spaces/${spaceId}/comments?limit=2`);
    expect(whole.body.items).toHaveLength(2);
    expect(whole.body.next).toBeUndefined();
    const first = await w.api("GET", `/spaces/${spaceId}/comments?limit=1`);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.next).toBeDefined();
  });
});
