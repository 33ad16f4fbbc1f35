import { ContentReferenceStatus } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";
import { PNG } from "../support/space-pages.js";

describe.each(STORAGE_KINDS)("conformance: links, backlinks and search (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.links_search);
    h.expectConformant();
    await h.close();
  });

  /** An owner with an organization and a space holding linked pages and a file. */
  async function workspace() {
    const owner = await h.test.createUser("Linker");
    const request = (method: string, path: string, body?: unknown) =>
      h.test.request(method, path, { token: owner.token, ...(body !== undefined ? { body } : {}) });
    const org = (await request("POST", "/orgs", { title: "Links Inc" })).body.id as string;
    const space = (await request("POST", `/orgs/${org}/spaces`, { title: "Manual" })).body.id as string;
    const write = async (path: string, body: unknown) =>
      (await request("POST", path, body)).body.id as string;
    const file = await write(`/spaces/${space}/content/files`, {
      name: "logo.png",
      contentType: "image/png",
      data: PNG,
    });
    const guide = await write(`/spaces/${space}/content/pages`, {
      title: "Guide",
      markdown: "# Setup\n\nInstall the **zebra toolkit**. See [the reference](reference.md).",
    });
    const reference = await write(`/spaces/${space}/content/pages`, {
      title: "Reference",
      markdown: [
        "Back to [the guide](guide.md), [gone](gone.md), [the web](https://example.com),",
        "[the app](http://docsbase.test/s/elsewhere).",
        "",
        "![logo](.gitbook/assets/logo.png)",
      ].join("\n"),
    });
    return { owner, request, org, space, file, guide, reference, api: h.client(owner.token) };
  }

  it("lists links and backlinks of a space", async () => {
    const w = await workspace();
    const { data: links } = await w.api.spaces.listSpaceLinks(w.space);
    expect(links.count).toBe(6);
    expect(links.stats).toEqual({ total: 6, broken: { total: 1 } });
    expect(links.items.map((item) => item.status)).toEqual(["ok", "ok", "ok", "broken", "in-app", "ok"]);
    expect(links.items[0]?.targetReference).toMatchObject({ kind: "page", page: { id: w.guide } });
    const { data: broken } = await w.api.spaces.listSpaceLinks(w.space, {
      status: ContentReferenceStatus.Broken,
    });
    expect(broken.items.map((item) => item.targetReference)).toEqual([{ kind: "url", url: "gone.md" }]);
    const { data: first } = await w.api.spaces.listSpaceLinks(w.space, { limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.next?.page).toEqual(expect.any(String));

    const { data: pageLinks } = await w.api.spaces.listPageLinksInSpace(w.space, w.guide);
    expect(pageLinks.items).toHaveLength(1);
    expect(pageLinks.items[0]).toMatchObject({
      status: "ok",
      relation: "reference",
      targetReference: { kind: "page", page: { id: w.reference } },
      locationReferences: [{ kind: "page", page: { id: w.guide } }],
    });
    const { data: backlinks } = await w.api.spaces.listSpacePageBacklinks(w.space, w.guide);
    expect(backlinks.items).toMatchObject([
      { kind: "page", space: { id: w.space }, page: { id: w.reference } },
    ]);
    const { data: fileBacklinks } = await w.api.spaces.listSpaceFileBacklinks(w.space, w.file);
    expect(fileBacklinks.items).toMatchObject([{ kind: "page", page: { id: w.reference } }]);
    expect(await statusOf(w.api.spaces.listSpacePageBacklinks(w.space, "missing"))).toBe(404);
    expect(await statusOf(w.api.spaces.listSpaceLinks("missing"))).toBe(404);
  });

  it("lists links and backlinks of a change request's content", async () => {
    const w = await workspace();
    const { data: cr } = await w.api.spaces.createChangeRequest(w.space, { subject: "Rework" });
    const inCr = `/spaces/${w.space}/change-requests/${cr.id}/content`;
    expect((await w.request("DELETE", `${inCr}/page/${w.guide}`)).status).toBe(205);
    const { data: links } = await w.api.spaces.listChangeRequestLinks(w.space, cr.id, {
      status: ContentReferenceStatus.Broken,
      brokenContext: "change-request",
    });
    // Links are stored as references: the deleted page is named by id (docs/api.md).
    expect(links.items.map((item) => item.targetReference)).toEqual([
      { kind: "url", url: `.gitbook/missing/page/${w.guide}` },
    ]);
    expect(links.stats).toEqual({ total: 5, broken: { total: 2, changeRequest: 1 } });
    const { data: pageLinks } = await w.api.spaces.listPageLinksInChangeRequest(w.space, cr.id, w.reference);
    expect(pageLinks.stats).toEqual({ total: 5, broken: { total: 2, changeRequest: 1 } });
    const { data: backlinks } = await w.api.spaces.listChangeRequestPageBacklinks(
      w.space,
      cr.id,
      w.reference,
    );
    expect(backlinks.items).toEqual([]);
    const { data: fileBacklinks } = await w.api.spaces.listChangeRequestFileBacklinks(w.space, cr.id, w.file);
    expect(fileBacklinks.items).toMatchObject([{ kind: "page", page: { id: w.reference } }]);
    expect(await statusOf(w.api.spaces.listChangeRequestPageBacklinks(w.space, cr.id, w.guide))).toBe(404);
    expect(await statusOf(w.api.spaces.listChangeRequestLinks(w.space, "999"))).toBe(404);
  });

  it("searches a space and an organization", async () => {
    const w = await workspace();
    const { data: found } = await w.api.spaces.searchSpaceContent(w.space, { query: "zebra toolkit" });
    expect(found.count).toBe(1);
    expect(found.items[0]).toMatchObject({
      id: w.guide,
      title: "Guide",
      path: "guide",
      sections: [{ id: `${w.guide}#setup`, title: "Setup", path: "guide#setup" }],
    });
    const { data: none } = await w.api.spaces.searchSpaceContent(w.space, { query: "okapi" });
    expect(none).toEqual({ count: 0, items: [] });
    expect(await statusOf(w.api.spaces.searchSpaceContent(w.space, { query: "" }))).toBe(400);
    expect(await statusOf(w.api.spaces.searchSpaceContent(w.space, { query: "x".repeat(513) }))).toBe(400);

    const { data: org } = await w.api.orgs.searchOrganizationContent(w.org, { query: "zebra", limit: 5 });
    expect(org.items).toMatchObject([{ id: w.space, title: "Manual", pages: [{ id: w.guide }] }]);
    const stranger = h.client((await h.test.createUser("Stranger")).token);
    expect(await statusOf(stranger.orgs.searchOrganizationContent(w.org, { query: "zebra" }))).toBe(404);
    expect(await statusOf(stranger.spaces.searchSpaceContent(w.space, { query: "zebra" }))).toBe(404);
  });
});
