import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { spaceWithLogo } from "../../../test/support/space-pages.js";
import type { ClientInput, ClientOutput } from "../client.js";
import type { Operations } from "../operations.js";

/**
 * A space in the Git Sync layout:
 *
 *   guides/README.md         "Guides" (has children)
 *   guides/install.md        "Install"
 *   guides/configure.md      "Configure"
 *   faq.md                   "FAQ"
 *   .gitbook/assets/logo.png
 */
async function setup() {
  const w = await createWorkspace();
  const { client } = w;
  const { space, content, page, logo } = await spaceWithLogo(w);
  const guides = await page(
    "Guides",
    "Start with [installing](install.md) then [configure](./configure.md).",
  );
  const install = await page(
    "Install",
    [
      "Back to [the guides](README.md) or the [FAQ](../faq.md#top).",
      "![Logo](../.gitbook/assets/logo.png)",
      "See [the site](https://example.com/docs) and [the app](http://docsbase.test/s/other/page).",
      "Also [missing](nowhere.md) and `[not a link](faq.md)`.",
    ].join("\n\n"),
    guides,
  );
  const configure = await page("Configure", "Read [install](install.md) again.", guides);
  const faq = await page(
    "FAQ",
    'Go to [guides](guides/README.md), [install](guides/install.md).\n\n{% file src=".gitbook/assets/logo.png" %}',
  );
  type Query = Omit<ClientInput<Operations["listSpaceLinks"]>, "spaceId">;
  const links = (query: Query = {}) => client.listSpaceLinks({ spaceId: space, ...query });
  return { ...w, space, content, page, logo, guides, install, configure, faq, links };
}

type Usage = ClientOutput<Operations["listSpaceLinks"]>["items"][number];
type Location = ClientOutput<Operations["listSpacePageBacklinks"]>["items"][number];

const nameOf = (location: Location) =>
  location.kind === "page"
    ? `page:${location.page.title}`
    : location.kind === "file"
      ? `file:${location.file.name}`
      : `url:${location.url}`;
const targetOf = (item: Usage) => nameOf(item.targetReference!);
/** A location's page title (undefined for a file or a URL). */
const titleOf = (location: Location) => (location.kind === "page" ? location.page.title : undefined);
const summary = (item: Usage) =>
  `${item.status} ${item.relation} ${targetOf(item)} <- ${item.locationReferences.map(titleOf).join(",")}`;
const notFound = (call: Promise<unknown>) => expect(call).rejects.toMatchObject({ code: "not_found" });

describe("links", () => {
  it("lists the links of a space by target, with relative page links, README parents, files and URLs", async () => {
    const s = await setup();
    const list = await s.links();
    expect(list.items.map(summary)).toEqual([
      "ok reference page:FAQ <- Install",
      "ok reference page:Guides <- Install,FAQ",
      "ok reference page:Configure <- Guides",
      "ok reference page:Install <- Guides,Configure,FAQ",
      "ok dependsOn file:logo.png <- Install,FAQ",
      "broken reference url:guides/nowhere.md <- Install",
      "in-app reference url:http://docsbase.test/s/other/page <- Install",
      "ok reference url:https://example.com/docs <- Install",
    ]);
    expect(list.count).toBe(8);
    expect(list.stats).toEqual({ total: 8, broken: { total: 1 } });
    const first = list.items[0]!;
    expect(first.targetReference).toMatchObject({
      kind: "page",
      organization: { object: "organization", id: s.org },
      space: { object: "space", id: s.space },
      page: { id: s.faq, path: "faq", pages: [] },
    });
    expect(list.items[4]!.targetReference).toMatchObject({ file: { id: s.logo, name: "logo.png" } });
  });

  it("filters by status, keeps stats on the whole list, and pages", async () => {
    const s = await setup();
    const broken = await s.links({ status: "broken" });
    expect(broken.items.map(summary)).toEqual(["broken reference url:guides/nowhere.md <- Install"]);
    expect(broken.count).toBe(1);
    expect(broken.stats).toEqual({ total: 8, broken: { total: 1 } });
    const inApp = await s.links({ status: "in-app" });
    expect(inApp.items.map(targetOf)).toEqual(["url:http://docsbase.test/s/other/page"]);
    // Over HTTP: no client type allows an unknown status.
    expect((await s.api("GET", `/spaces/${s.space}/links?status=gone`)).status).toBe(400);

    const seen: string[] = [];
    let query: { limit: number; page?: string } = { limit: 3 };
    for (;;) {
      const page = await s.links(query);
      expect(page.count).toBe(8);
      seen.push(...page.items.map(targetOf));
      if (!page.next) break;
      query = { limit: 3, page: page.next.page };
    }
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
  });

  it("lists the links of one page, and answers 404 for a page that is not there", async () => {
    const s = await setup();
    const pageLinks = (pageId: string) => s.client.listPageLinksInSpace({ spaceId: s.space, pageId });
    const list = await pageLinks(s.install);
    expect(list.items.map(summary)).toEqual([
      "ok reference page:FAQ <- Install",
      "ok reference page:Guides <- Install",
      "ok dependsOn file:logo.png <- Install",
      "broken reference url:guides/nowhere.md <- Install",
      "in-app reference url:http://docsbase.test/s/other/page <- Install",
      "ok reference url:https://example.com/docs <- Install",
    ]);
    expect(list.stats).toEqual({ total: 6, broken: { total: 1 } });
    const empty = await s.page("Empty", "No links here.");
    expect(await pageLinks(empty)).toEqual({
      count: 0,
      items: [],
      stats: { total: 0, broken: { total: 0 } },
    });
    await notFound(pageLinks("missing"));
  });

  it("marks links broken once their target page or file is deleted", async () => {
    const s = await setup();
    expect((await s.api("DELETE", s.content(`/page/${s.configure}`))).status).toBe(205);
    expect((await s.api("DELETE", s.content(`/files/${s.logo}`))).status).toBe(205);
    const broken = await s.links({ status: "broken" });
    // The logo was uploaded before the pages linked it: their links are references by id. Guides
    // linked configure.md before that page existed: a text link, resolved by path.
    expect(broken.items.map(summary)).toEqual([
      `broken dependsOn url:.gitbook/missing/file/${s.logo} <- Install,FAQ`,
      "broken reference url:guides/configure.md <- Guides",
      "broken reference url:guides/nowhere.md <- Install",
    ]);
    expect(broken.stats).toEqual({ total: 8, broken: { total: 3 } });
  });

  it("lists the backlinks of pages and files", async () => {
    const s = await setup();
    const spaceId = s.space;
    const titles = (list: { items: Location[] }) => list.items.map(titleOf);
    const pageBacklinks = (pageId: string, query: { limit?: number; page?: string } = {}) =>
      s.client.listSpacePageBacklinks({ spaceId, pageId, ...query });
    const install = await pageBacklinks(s.install);
    expect(titles(install)).toEqual(["FAQ", "Guides", "Configure"]);
    expect(install.items[0]).toMatchObject({ kind: "page", space: { id: s.space }, page: { id: s.faq } });
    expect(titles(await pageBacklinks(s.faq))).toEqual(["Install"]);
    const logo = await s.client.listSpaceFileBacklinks({ spaceId, fileId: s.logo });
    expect(titles(logo)).toEqual(["FAQ", "Install"]);
    const first = await pageBacklinks(s.install, { limit: 2 });
    expect(titles(first)).toEqual(["FAQ", "Guides"]);
    const rest = await pageBacklinks(s.install, { limit: 2, page: first.next!.page });
    expect(titles(rest)).toEqual(["Configure"]);
    await notFound(s.client.listSpaceFileBacklinks({ spaceId, fileId: "missing" }));
    await notFound(pageBacklinks("missing"));
  });

  it("hides everything from callers who cannot read the space", async () => {
    const s = await setup();
    await notFound(s.outsider.client.listSpaceLinks({ spaceId: s.space }));
    const guest = await s.member(null);
    await notFound(guest.client.listSpacePageBacklinks({ spaceId: s.space, pageId: s.install }));
    const reader = await s.member("read");
    await reader.client.listSpaceLinks({ spaceId: s.space });
  });

  it("reads a change request's content in the change-request variants", async () => {
    const s = await setup();
    const cr = await s.client.createChangeRequest({ spaceId: s.space, body: { subject: "Trim" } });
    const inCr = { spaceId: s.space, changeRequestId: cr.id };
    expect(
      (await s.api("DELETE", `/spaces/${s.space}/change-requests/${cr.id}/content/page/${s.faq}`)).status,
    ).toBe(205);
    const fresh = (
      await s.client.createPageInChangeRequest({
        ...inCr,
        body: { title: "New", markdown: "[Old](gone.md)" },
      })
    ).id;

    const list = await s.client.listChangeRequestLinks({ ...inCr, status: "broken" });
    expect(list.items.map(summary)).toEqual([
      "broken reference url:faq.md <- Install",
      "broken reference url:gone.md <- New",
      "broken reference url:guides/nowhere.md <- Install",
    ]);
    // Two of the three broken links are the change request's doing.
    expect(list.stats).toEqual({ total: 9, broken: { total: 3, changeRequest: 2 } });
    const mine = await s.client.listChangeRequestLinks({
      ...inCr,
      status: "broken",
      brokenContext: "change-request",
    });
    expect(mine.items.map(targetOf)).toEqual(["url:faq.md", "url:gone.md"]);
    const byNumber = await s.client.listChangeRequestLinks({
      spaceId: s.space,
      changeRequestId: String(cr.number),
    });
    expect(byNumber.count).toBe(9);

    const newLinks = await s.client.listPageLinksInChangeRequest({ ...inCr, pageId: fresh });
    expect(newLinks.stats).toEqual({ total: 1, broken: { total: 1, changeRequest: 1 } });
    const installBacklinks = await s.client.listChangeRequestPageBacklinks({ ...inCr, pageId: s.install });
    expect(installBacklinks.items.map(titleOf)).toEqual(["Guides", "Configure"]);
    const logoBacklinks = await s.client.listChangeRequestFileBacklinks({ ...inCr, fileId: s.logo });
    expect(logoBacklinks.items.map(titleOf)).toEqual(["Install"]);
    await notFound(s.client.listChangeRequestPageBacklinks({ ...inCr, pageId: s.faq }));

    // The space itself is unchanged.
    const spaceLinks = await s.links();
    expect(spaceLinks.stats).toEqual({ total: 8, broken: { total: 1 } });
    await notFound(s.client.listChangeRequestLinks({ spaceId: s.space, changeRequestId: "999" }));
  });
});
