import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The folders split out of the content and sites resources import one way (docs/architecture.md,
 * "Layers"): what sits below imports nothing of what is built on it, so a folder can be read,
 * tested and bundled without the ones above. Type imports count as imports.
 */
const core = join(import.meta.dirname, "..", "src", "core");

/** Each lower layer and the only `src/core` folders it may import ("." is the registry's folder). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  document: ["shared"],
  pdf: ["document", "shared"],
  visitors: ["shared"],
  "content-tree": [".", "shared", "storage"],
  "link-references": ["content-tree", "document", "shared"],
};

/** The upper folders of the split, and folders built on them that they must not import. */
const MUST_NOT_IMPORT: Record<string, readonly string[]> = {
  content: ["links", "search", "exports", "sites", "published"],
  sites: ["published"],
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : [];
  });
}

/** The folder of `src/core` a path is in ("." for the files at its root). */
function folderOf(path: string): string {
  const parts = relative(core, path).split("/");
  return parts.length > 1 ? (parts[0] as string) : ".";
}

/** Folder → each `src/core` folder its files import, with the first importing file. */
function folderImports(): Map<string, Map<string, string>> {
  const imports = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(core)) {
    const from = folderOf(file);
    // Paths named in comments are not imports.
    const source = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = resolve(dirname(file), match[1] as string);
      if (relative(core, target).startsWith("..")) continue;
      const to = folderOf(target);
      if (to === from) continue;
      const targets = imports.get(from) ?? new Map<string, string>();
      if (!targets.has(to)) targets.set(to, relative(core, file));
      imports.set(from, targets);
    }
  }
  return imports;
}

describe("the layers of src/core", () => {
  const imports = folderImports();
  const importsOf = (folder: string) => [...(imports.get(folder) ?? new Map<string, string>())];

  it("sees the imports it judges (control)", () => {
    expect(imports.get("content")?.get("content-tree")).toMatch(/^content\//);
    expect(imports.get("pdf")?.has("document")).toBe(true);
    expect(imports.get("published")?.has("sites")).toBe(true);
    expect(imports.get("links")?.has("content")).toBe(true);
  });

  it.each(Object.entries(MAY_IMPORT))("%s imports only the layers below it", (folder, allowed) => {
    const outside = importsOf(folder)
      .filter(([to]) => !allowed.includes(to))
      .map(([to, file]) => `${file} imports ${to}/`);
    expect(outside).toEqual([]);
  });

  it.each(Object.entries(MUST_NOT_IMPORT))("%s imports none of the folders built on it", (folder, above) => {
    const upward = importsOf(folder)
      .filter(([to]) => above.includes(to))
      .map(([to, file]) => `${file} imports ${to}/`);
    expect(upward).toEqual([]);
  });

  it("the published reads are imported by the module list alone", () => {
    const importers = [...imports].filter(([, targets]) => targets.has("published")).map(([from]) => from);
    expect(importers).toEqual(["."]);
  });
});
