import { DerivedCache } from "../shared/cache.js";
import { describe, expect, it } from "vitest";
import type { FullContent } from "../content-tree/revisions.js";
import { pageTree } from "../content-tree/tree.js";
import type { World } from "../shared/world.js";
import type { FileVersionRecord, PageVersionRecord, RevisionRecord } from "../content-tree/tables.js";
import { extractLinks } from "./extract.js";
import { linkGraph } from "./graph.js";
import { hostsOf, pageDirectory, resolveLink, type ResolveIndex } from "./resolve.js";

function page(page: string, slug: string, parent = "", markdown = ""): PageVersionRecord {
  const at = "2025-01-01T00:00:00.000Z";
  return {
    id: `v-${page}`,
    page,
    parent,
    position: slug,
    type: "document",
    title: slug,
    slug,
    markdown,
    hidden: false,
    createdAt: at,
    updatedAt: at,
  };
}

function revision(id: string, pages: PageVersionRecord[], files: [string, string][] = []): FullContent {
  const record: RevisionRecord = { id, space: "s", seq: 1, parents: [], createdAt: "", type: "edits" };
  const fileVersions = files.map(([file, name]): [string, FileVersionRecord] => [
    file,
    { id: `v-${file}`, file, name, contentType: "image/png", blob: "", size: 0, createdAt: "" },
  ]);
  return {
    record,
    pages: new Map(pages.map((version) => [version.page, version])),
    files: new Map(fileVersions),
    reusableContents: new Map(),
  };
}

const content = revision(
  "r1",
  [page("a", "guides"), page("b", "install", "a"), page("c", "faq"), page("d", "deep", "b")],
  [["f1", "my logo.png"]],
);
const tree = pageTree(content);
const index: ResolveIndex = {
  tree,
  filesByName: new Map([["my logo.png", "f1"]]),
  appHosts: hostsOf("https://docs.example.com", "http://localhost:8787"),
  hasFile: (id) => content.files.has(id),
};
const resolve = (href: string, from = "guides") => {
  const { status, target } = resolveLink(href, from, index);
  return `${status} ${Object.values(target).join(":")}`;
};

describe("link resolution", () => {
  it("places pages in the Git Sync layout", () => {
    expect(pageDirectory(tree.byId.get("a")!)).toBe("guides");
    expect(pageDirectory(tree.byId.get("b")!)).toBe("guides/install");
    expect(pageDirectory(tree.byId.get("d")!)).toBe("guides/install");
    expect(pageDirectory(tree.byId.get("c")!)).toBe("");
  });

  it("resolves page paths in every written form", () => {
    expect(resolve("install.md")).toBe("ok page:b");
    expect(resolve("install/README.md")).toBe("ok page:b");
    expect(resolve("install/")).toBe("ok page:b");
    expect(resolve("./install?x=1#usage")).toBe("ok page:b");
    expect(resolve("../faq.md")).toBe("ok page:c");
    expect(resolve("/faq.md", "guides/install")).toBe("ok page:c");
    expect(resolve("../../../faq.md")).toBe("ok page:c");
    expect(resolve("README.md")).toBe("ok page:a");
    // README.md at the root is the first page of the space ("faq" sorts first here).
    expect(resolve("../README.md")).toBe("ok page:c");
    expect(resolve("README.md", "")).toBe("ok page:c");
    expect(resolve("missing.md")).toBe("broken missing:guides/missing.md");
    expect(resolve("image.png")).toBe("broken missing:guides/image.png");
  });

  it("resolves files by name under .gitbook/assets, percent-decoded", () => {
    expect(resolve("../.gitbook/assets/my%20logo.png")).toBe("ok file:f1");
    expect(resolve("/.gitbook/assets/my logo.png")).toBe("ok file:f1");
    expect(resolve("../.gitbook/assets/other.png")).toBe("broken missing:.gitbook/assets/other.png");
  });

  it("tells external URLs from links into the app", () => {
    expect(resolve("https://example.com/a")).toBe("ok url:https://example.com/a");
    expect(resolve("mailto:team@example.com")).toBe("ok url:mailto:team@example.com");
    expect(resolve("https://DOCS.example.com/s/x")).toBe("in-app url:https://DOCS.example.com/s/x");
    expect(resolve("//docs.example.com/s/x")).toBe("in-app url://docs.example.com/s/x");
    expect(resolve("http://localhost:8787/v1/spaces/x")).toBe("in-app url:http://localhost:8787/v1/spaces/x");
  });

  it("extracts links, images, references, HTML and GitBook blocks, but not code or anchors", () => {
    const markdown = [
      "[a](a.md) ![b](b.png) [c][ref] [same page](#usage)",
      "[ref]: c.md",
      '<figure><img src="d.png" alt=""></figure>',
      '{% file src="e.pdf" %}\n\n{% content-ref url="f.md" %}',
      "```\n[code](g.md)\n```",
    ].join("\n\n");
    expect(extractLinks(markdown)).toEqual([
      { href: "a.md", relation: "reference" },
      { href: "b.png", relation: "dependsOn" },
      { href: "c.md", relation: "reference" },
      { href: "d.png", relation: "dependsOn" },
      { href: "e.pdf", relation: "dependsOn" },
      { href: "f.md", relation: "reference" },
    ]);
  });

  it("leaves mentions of users out: they link to no content", () => {
    expect(extractLinks("Ask [@u1](user:u1) or [a](a.md).")).toEqual([
      { href: "a.md", relation: "reference" },
    ]);
  });

  it("computes a revision's graph once and keeps it in the cache", () => {
    const world = {
      cache: new DerivedCache(1 << 20),
      appUrl: "http://a",
      baseUrl: "http://a",
    };
    const linked = revision("r2", [page("x", "x", "", "[y](y.md)"), page("y", "y")]);
    const graph = linkGraph(world as unknown as World, linked);
    expect(world.cache.get("links:r2")).toBe(graph);
    expect(linkGraph(world as unknown as World, linked)).toBe(graph);
    expect(graph.backlinks.get("page:y")).toEqual(["x"]);
  });
});
