import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { spaceWithLogo } from "../../../test/support/space-pages.js";
import { DerivedCache } from "../shared/cache.js";
import { requireRevision } from "../content-tree/revisions.js";
import type { World } from "../shared/world.js";
import { spacesTable } from "../spaces/tables.js";
import { markdownSegments } from "../translations/segments.js";
import { linkSites, remapReferences, renderLinks, storeLinks, type LinkAnswers } from "./references.js";
import type { ClientInput } from "../client.js";
import type { ContentLocation } from "../links/present.js";
import type { Operations } from "../operations.js";

/**
 * A space with a page that links to a target page (also to an anchor of it) and embeds a file:
 *
 *   guides/README.md  "Guides" (has children)
 *   guides/intro.md   "Intro"
 *   target.md         "Target"
 *   linker.md         "Linker": [target](target.md), [part](target.md#part), ![logo](.gitbook/assets/logo.png)
 */
async function setup() {
  const w = await createWorkspace();
  const { client } = w;
  const { space, content, page: create, logo } = await spaceWithLogo(w);
  const guides = await create("Guides", "All the guides.");
  await create("Intro", "Hello.", guides);
  const target = await create("Target", "# Part\n\nThe target.");
  const linker = await create(
    "Linker",
    "See [target](target.md), [part](target.md#part).\n\n![logo](.gitbook/assets/logo.png)\n",
  );
  /** A page's markdown in the space, or in one of its change requests. */
  const markdown = async (pageId: string, changeRequestId?: string) =>
    (changeRequestId === undefined
      ? await client.getPageById({ spaceId: space, pageId, format: "markdown" })
      : await client.getPageInChangeRequestById({
          spaceId: space,
          changeRequestId,
          pageId,
          format: "markdown",
        })
    ).markdown;
  const document = async (pageId: string) => (await client.getPageById({ spaceId: space, pageId })).document!;
  const edit = (pageId: string, body: ClientInput<Operations["updatePage"]>["body"]) =>
    client.updatePage({ spaceId: space, pageId, body });
  const links = () => client.listSpaceLinks({ spaceId: space });
  /** The markdown stored in the space's current version of a page (read from storage). */
  const stored = async (page: string) => {
    const current = await w.stored(spacesTable, space);
    const world = { cache: new DerivedCache(1 << 20) } as unknown as World;
    const version = await w.storage.read(async (tx) =>
      (await requireRevision(tx, world, current!.revision)).page(page),
    );
    return version!.markdown;
  };
  return {
    ...w,
    newSpace: w.space,
    space,
    content,
    create,
    logo,
    guides,
    target,
    linker,
    markdown,
    document,
    edit,
    links,
    stored,
  };
}

/** The page id of a location, undefined for a file or a URL. */
const pageOf = (location: ContentLocation | undefined) =>
  location?.kind === "page" ? location.page.id : undefined;

const refs = (node: any): any[] =>
  Array.isArray(node)
    ? node.flatMap(refs)
    : node && typeof node === "object"
      ? [...(node.data?.ref ? [node.data.ref] : []), ...refs(node.nodes ?? []), ...refs(node.fragments ?? [])]
      : [];

describe("links stored as references", () => {
  it("stores links to pages and files by id and renders their current relative paths", async () => {
    const s = await setup();
    expect(await s.stored(s.linker)).toBe(
      `See [target](docsbase-ref:page/${s.target}), [part](docsbase-ref:page/${s.target}#part).\n\n` +
        `![logo](docsbase-ref:file/${s.logo})\n`,
    );
    expect(await s.markdown(s.linker)).toBe(
      "See [target](target.md), [part](target.md#part).\n\n![logo](.gitbook/assets/logo.png)\n",
    );
  });

  it("keeps every link ok through a rename and a move, and shows the new path", async () => {
    const s = await setup();
    const before = await s.stored(s.linker);
    await s.edit(s.target, { slug: "renamed" });
    expect(await s.markdown(s.linker)).toBe(
      "See [target](renamed.md), [part](renamed.md#part).\n\n![logo](.gitbook/assets/logo.png)\n",
    );
    await s.edit(s.target, { parent: s.guides });
    expect(await s.markdown(s.linker)).toBe(
      "See [target](guides/renamed.md), [part](guides/renamed.md#part).\n\n![logo](.gitbook/assets/logo.png)\n",
    );
    // The linking page itself never changed.
    expect(await s.stored(s.linker)).toBe(before);
    const list = await s.links();
    expect(list.stats).toEqual({ total: 2, broken: { total: 0 } });
    expect(list.items.map((item) => item.status)).toEqual(["ok", "ok"]);
    // Moving the linking page renders its links relative to its new place.
    await s.edit(s.linker, { parent: s.guides });
    expect(await s.markdown(s.linker)).toMatch(
      /^See \[target\]\(renamed\.md\), \[part\]\(renamed\.md#part\)\.\n\n!\[logo\]\(\.\.\/\.gitbook\/assets\/logo\.png\)/,
    );
    const backlinks = await s.client.listSpacePageBacklinks({ spaceId: s.space, pageId: s.target });
    expect(backlinks.items.map(pageOf)).toEqual([s.linker]);
    // Pages presented in lists and revisions render their links too.
    const revision = await s.client.getCurrentRevision({ spaceId: s.space });
    const all = JSON.stringify(revision);
    expect(all).not.toContain("docsbase-ref:");
    expect(all).toContain("[target](renamed.md)");
  });

  it("shows references as page, anchor and file refs in the document format", async () => {
    const s = await setup();
    expect(refs((await s.document(s.linker)).nodes)).toEqual([
      { kind: "page", page: s.target },
      { kind: "anchor", anchor: "part", page: s.target },
      { kind: "file", file: s.logo },
    ]);
    await s.edit(s.target, { slug: "renamed" });
    expect(refs((await s.document(s.linker)).nodes)).toEqual([
      { kind: "page", page: s.target },
      { kind: "anchor", anchor: "part", page: s.target },
      { kind: "file", file: s.logo },
    ]);
  });

  it("marks a link to a deleted page or file broken, naming it by id", async () => {
    const s = await setup();
    expect((await s.api("DELETE", s.content(`/page/${s.target}`))).status).toBe(205);
    expect((await s.api("DELETE", s.content(`/files/${s.logo}`))).status).toBe(205);
    const list = await s.links();
    expect(list.items.map((item) => [item.status, item.targetReference])).toEqual([
      ["broken", { kind: "url", url: `.gitbook/missing/file/${s.logo}` }],
      ["broken", { kind: "url", url: `.gitbook/missing/page/${s.target}` }],
    ]);
    const shown = await s.markdown(s.linker);
    expect(shown).toBe(
      `See [target](.gitbook/missing/page/${s.target}), [part](.gitbook/missing/page/${s.target}#part).\n\n` +
        `![logo](.gitbook/missing/file/${s.logo})\n`,
    );
    // Written back as read, the links still name the deleted page and file by id.
    const before = await s.stored(s.linker);
    await s.edit(s.linker, { markdown: shown! });
    expect(await s.stored(s.linker)).toBe(before);
  });

  it("never takes a target a user writes in the reserved form for a reference", async () => {
    const s = await setup();
    const written = [
      `[literal](docsbase-ref:page/${s.target}) and [upper](DOCSBASE-REF:file/${s.logo})`,
      `<docsbase-ref:page/${s.target}>`,
      `<a href="docsbase-ref:page/${s.target}">html</a>`,
      "",
    ].join("\n\n");
    const page = await s.create("Literal", written);
    expect(await s.markdown(page)).toBe(written);
    expect(refs((await s.document(page)).nodes)).toEqual([
      { kind: "url", url: `docsbase-ref:page/${s.target}` },
      { kind: "url", url: `DOCSBASE-REF:file/${s.logo}` },
      { kind: "url", url: `docsbase-ref:page/${s.target}` },
    ]);
    const own = await s.client.listPageLinksInSpace({ spaceId: s.space, pageId: page });
    expect(own.items.map((item) => item.targetReference!.kind)).toEqual(["url", "url"]);
    const backlinks = await s.client.listSpacePageBacklinks({ spaceId: s.space, pageId: s.target });
    expect(backlinks.items.map(pageOf)).toEqual([s.linker]);
  });

  it("resolves text links stored before their target existed by path, as before", async () => {
    const s = await setup();
    const early = await s.create("Early", "Read [later](later.md) first.");
    expect(await s.stored(early)).toBe("Read [later](later.md) first.");
    const later = await s.create("Later", "Here.");
    const own = await s.client.listPageLinksInSpace({ spaceId: s.space, pageId: early });
    expect(own.items.map((item) => [item.status, pageOf(item.targetReference)])).toEqual([["ok", later]]);
    expect(await s.markdown(early)).toBe("Read [later](later.md) first.");
    // The document resolves it when read (written-links.test.ts).
    expect(refs((await s.document(early)).nodes)).toEqual([{ kind: "page", page: later }]);
    // A rename breaks a text link, as it always did; writing the page again makes it a reference.
    await s.edit(later, { slug: "later-on" });
    expect(refs((await s.document(early)).nodes)).toEqual([{ kind: "url", url: "later.md" }]);
    expect(
      (await s.client.listPageLinksInSpace({ spaceId: s.space, pageId: early })).stats.broken.total,
    ).toBe(1);
    await s.edit(early, { markdown: "Read [later](later-on.md) first." });
    await s.edit(later, { slug: "last" });
    expect(await s.markdown(early)).toBe("Read [later](last.md) first.");
  });

  it("merges a change request linking to a page that the space renamed, without conflict", async () => {
    const s = await setup();
    const doc = await s.create("Doc", "First line.\n\nSecond line.\n\nThird line.");
    const cr = await s.client.createChangeRequest({ spaceId: s.space, body: { subject: "Link" } });
    const inCr = { spaceId: s.space, changeRequestId: cr.id };
    await s.client.updatePageInChangeRequest({
      ...inCr,
      pageId: doc,
      body: { markdown: "First line, see [the target](target.md).\n\nSecond line.\n\nThird line." },
    });
    // Meanwhile the space renames the target and edits another line of the same page.
    await s.edit(s.target, { slug: "destination" });
    await s.edit(doc, { markdown: "First line.\n\nSecond line.\n\nThird line, edited." });
    expect(await s.markdown(doc, cr.id)).toBe(
      "First line, see [the target](target.md).\n\nSecond line.\n\nThird line.",
    );
    const merged = await s.client.mergeChangeRequest(inCr);
    expect(merged.result).toBe("merge");
    expect(await s.markdown(doc)).toBe(
      "First line, see [the target](destination.md).\n\nSecond line.\n\nThird line, edited.",
    );
    const list = await s.links();
    expect(list.stats.broken.total).toBe(0);
  });

  it("follows template pages to their copies", async () => {
    const s = await setup();
    const target = await s.newSpace({ title: "From template" });
    await s.client.applyTemplateToSpace({ spaceId: target, body: { id: s.space } });
    const { pages } = await s.client.listPages({ spaceId: target });
    const copy = (title: string) => pages.find((page) => page.title === title)!;
    const document = (await s.client.getPageById({ spaceId: target, pageId: copy("Linker").id })).document!;
    expect(refs(document.nodes)[0]).toEqual({ kind: "page", page: copy("Target").id });
    expect(copy("Linker").markdown).toContain("[target](target.md)");
  });
});

describe("reference conversions", () => {
  const answers: LinkAnswers = {
    pageByPath: new Map([
      ["a/b", "B"],
      ["", "FIRST"],
    ]),
    fileByName: new Map([["my file.png", "F"]]),
    pageFiles: new Map([
      ["SRC", "a/src.md"],
      ["B", "c/b/README.md"],
    ]),
    fileNames: new Map([["F", "my (file).png"]]),
  };
  const store = (markdown: string) => storeLinks(markdown, linkSites(markdown), "a", answers);
  const render = (markdown: string) => renderLinks(markdown, linkSites(markdown), "SRC", answers);

  it("finds targets in destinations, definitions, HTML and GitBook blocks, never in code or autolinks", () => {
    const markdown =
      '[x](b.md "t") [y][d] <https://auto> `[z](b.md)`\r\n\r\n[d]: <b.md#h>\n\n<img src="b.md">\n\n' +
      '{% content-ref url="b.md" %}\n\n```\n[c](b.md)\n```\n';
    expect(linkSites(markdown).map((site) => [site.where, markdown.slice(site.start, site.end)])).toEqual([
      ["destination", "b.md"],
      ["destination", "b.md#h"],
      ["html", "b.md"],
      ["block", "b.md"],
    ]);
    expect(store(markdown)).toBe(
      '[x](docsbase-ref:page/B "t") [y][d] <https://auto> `[z](b.md)`\r\n\r\n[d]: <docsbase-ref:page/B#h>\n\n' +
        '<img src="docsbase-ref:page/B">\n\n{% content-ref url="docsbase-ref:page/B" %}\n\n```\n[c](b.md)\n```\n',
    );
  });

  it("renders references relative to the linking page, and escaped targets as written", () => {
    expect(render("[b](docsbase-ref:page/B?q=1#h) ![f](docsbase-ref:file/F)")).toBe(
      "[b](../c/b/README.md?q=1#h) ![f](../.gitbook/assets/my%20%28file%29.png)",
    );
    expect(render("[gone](docsbase-ref:page/GONE)")).toBe("[gone](../.gitbook/missing/page/GONE)");
    const literal = "[l](docsbase-ref:page/B) [e](docsbase&#45;ref:page/B) [u](https://x/y)";
    const stored = store(literal);
    expect(stored).toBe(
      "[l](docsbase-ref:url/docsbase-ref:page/B) [e](docsbase-ref:url/docsbase&#45;ref:page/B) [u](https://x/y)",
    );
    expect(render(stored)).toBe(literal);
    // Paths that name nothing, anchors and external URLs stay as written.
    expect(store("[n](nothing.md) [a](#here) [m](mailto:x@y.z) [r](/README.md)")).toBe(
      "[n](nothing.md) [a](#here) [m](mailto:x@y.z) [r](docsbase-ref:page/FIRST)",
    );
  });

  it("renames page references of a copy", () => {
    const markdown = "[b](docsbase-ref:page/B#h) [o](docsbase-ref:page/OTHER) [f](docsbase-ref:file/F)";
    expect(remapReferences(markdown, linkSites(markdown), new Map([["B", "B2"]]))).toBe(
      "[b](docsbase-ref:page/B2#h) [o](docsbase-ref:page/OTHER) [f](docsbase-ref:file/F)",
    );
  });

  it("sends no reference to a translation engine", () => {
    const texts = markdownSegments('{% content-ref url="docsbase-ref:page/Abc123" %}\nSee the page').map(
      (segment) => segment.text,
    );
    expect(texts.join(" ")).not.toContain("Abc123");
  });
});
