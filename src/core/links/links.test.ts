import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

/** A 1x1 transparent PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

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
  const space = await w.space({ title: "Docs" });
  const content = (path: string) => `/spaces/${space}/content${path}`;
  const page = async (title: string, markdown: string, parent?: string) =>
    (await w.api("POST", content("/pages"), { title, markdown, ...(parent ? { parent } : {}) })).body
      .id as string;
  const logo = (
    await w.api("POST", content("/files"), { name: "logo.png", contentType: "image/png", data: PNG })
  ).body.id as string;
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
  const links = async (path: string, query = "") => (await w.api("GET", `${path}${query}`)).body;
  return { ...w, space, content, page, logo, guides, install, configure, faq, links };
}

const targetOf = (item: any) =>
  item.targetReference.kind === "page"
    ? `page:${item.targetReference.page.title}`
    : item.targetReference.kind === "file"
      ? `file:${item.targetReference.file.name}`
      : `url:${item.targetReference.url}`;
const summary = (item: any) =>
  `${item.status} ${item.relation} ${targetOf(item)} <- ${item.locationReferences.map((l: any) => l.page.title).join(",")}`;

describe("links", () => {
  it("lists the links of a space by target, with relative page links, README parents, files and URLs", async () => {
    const s = await setup();
    const list = await s.links(`/spaces/${s.space}/links`);
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
    const first = list.items[0];
    expect(first.targetReference).toMatchObject({
      kind: "page",
      organization: { object: "organization", id: s.org },
      space: { object: "space", id: s.space },
      page: { id: s.faq, path: "faq", markdown: expect.any(String) },
    });
    expect(list.items[4].targetReference.file).toMatchObject({ id: s.logo, name: "logo.png" });
  });

  it("filters by status, keeps stats on the whole list, and pages", async () => {
    const s = await setup();
    const broken = await s.links(`/spaces/${s.space}/links`, "?status=broken");
    expect(broken.items.map(summary)).toEqual(["broken reference url:guides/nowhere.md <- Install"]);
    expect(broken.count).toBe(1);
    expect(broken.stats).toEqual({ total: 8, broken: { total: 1 } });
    const inApp = await s.links(`/spaces/${s.space}/links`, "?status=in-app");
    expect(inApp.items.map(targetOf)).toEqual(["url:http://docsbase.test/s/other/page"]);
    expect((await s.api("GET", `/spaces/${s.space}/links?status=gone`)).status).toBe(400);

    const seen: string[] = [];
    let query = "?limit=3";
    for (;;) {
      const page = await s.links(`/spaces/${s.space}/links`, query);
      expect(page.count).toBe(8);
      seen.push(...page.items.map(targetOf));
      if (!page.next) break;
      query = `?limit=3&page=${page.next.page}`;
    }
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
  });

  it("lists the links of one page, and answers 404 for a page that is not there", async () => {
    const s = await setup();
    const list = await s.links(s.content(`/page/${s.install}/links`));
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
    expect(await s.links(s.content(`/page/${empty}/links`))).toEqual({
      count: 0,
      items: [],
      stats: { total: 0, broken: { total: 0 } },
    });
    expect((await s.api("GET", s.content("/page/missing/links"))).status).toBe(404);
  });

  it("marks links broken once their target page or file is deleted", async () => {
    const s = await setup();
    expect((await s.api("DELETE", s.content(`/page/${s.configure}`))).status).toBe(205);
    expect((await s.api("DELETE", s.content(`/files/${s.logo}`))).status).toBe(205);
    const broken = await s.links(`/spaces/${s.space}/links`, "?status=broken");
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
    const titles = (list: any) => list.items.map((location: any) => location.page.title);
    const install = await s.links(s.content(`/page/${s.install}/backlinks`));
    expect(titles(install)).toEqual(["FAQ", "Guides", "Configure"]);
    expect(install.items[0]).toMatchObject({ kind: "page", space: { id: s.space }, page: { id: s.faq } });
    expect(titles(await s.links(s.content(`/page/${s.faq}/backlinks`)))).toEqual(["Install"]);
    const logo = await s.links(s.content(`/files/${s.logo}/backlinks`));
    expect(titles(logo)).toEqual(["FAQ", "Install"]);
    const first = await s.links(s.content(`/page/${s.install}/backlinks`), "?limit=2");
    expect(titles(first)).toEqual(["FAQ", "Guides"]);
    const rest = await s.links(s.content(`/page/${s.install}/backlinks`), `?limit=2&page=${first.next.page}`);
    expect(titles(rest)).toEqual(["Configure"]);
    expect((await s.api("GET", s.content("/files/missing/backlinks"))).status).toBe(404);
    expect((await s.api("GET", s.content("/page/missing/backlinks"))).status).toBe(404);
  });

  it("hides everything from callers who cannot read the space", async () => {
    const s = await setup();
    expect((await s.outsider("GET", `/spaces/${s.space}/links`)).status).toBe(404);
    const guest = await s.member(null);
    expect((await guest("GET", s.content(`/page/${s.install}/backlinks`))).status).toBe(404);
    const reader = await s.member("read");
    expect((await reader("GET", `/spaces/${s.space}/links`)).status).toBe(200);
  });

  it("reads a change request's content in the change-request variants", async () => {
    const s = await setup();
    const cr = (await s.api("POST", `/spaces/${s.space}/change-requests`, { subject: "Trim" })).body;
    const inCr = (path: string) => `/spaces/${s.space}/change-requests/${cr.id}${path}`;
    expect((await s.api("DELETE", inCr(`/content/page/${s.faq}`))).status).toBe(205);
    const fresh = (await s.api("POST", inCr("/content/pages"), { title: "New", markdown: "[Old](gone.md)" }))
      .body.id as string;

    const list = await s.links(inCr("/links"), "?status=broken");
    expect(list.items.map(summary)).toEqual([
      "broken reference url:faq.md <- Install",
      "broken reference url:gone.md <- New",
      "broken reference url:guides/nowhere.md <- Install",
    ]);
    // Two of the three broken links are the change request's doing.
    expect(list.stats).toEqual({ total: 9, broken: { total: 3, changeRequest: 2 } });
    const mine = await s.links(inCr("/links"), "?status=broken&brokenContext=change-request");
    expect(mine.items.map(targetOf)).toEqual(["url:faq.md", "url:gone.md"]);
    const byNumber = await s.links(`/spaces/${s.space}/change-requests/${cr.number}/links`);
    expect(byNumber.count).toBe(9);

    const newLinks = await s.links(inCr(`/content/page/${fresh}/links`));
    expect(newLinks.stats).toEqual({ total: 1, broken: { total: 1, changeRequest: 1 } });
    const installBacklinks = await s.links(inCr(`/content/page/${s.install}/backlinks`));
    expect(installBacklinks.items.map((l: any) => l.page.title)).toEqual(["Guides", "Configure"]);
    const logoBacklinks = await s.links(inCr(`/content/files/${s.logo}/backlinks`));
    expect(logoBacklinks.items.map((l: any) => l.page.title)).toEqual(["Install"]);
    expect((await s.api("GET", inCr(`/content/page/${s.faq}/backlinks`))).status).toBe(404);

    // The space itself is unchanged.
    const spaceLinks = await s.links(`/spaces/${s.space}/links`);
    expect(spaceLinks.stats).toEqual({ total: 8, broken: { total: 1 } });
    expect((await s.api("GET", `/spaces/${s.space}/change-requests/999/links`)).status).toBe(404);
  });
});
