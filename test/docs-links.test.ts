import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The prose documentation names only files a reader of the repository can open: every relative
 * markdown link resolves, every markdown file named (`SPEC.md`, `docs/api.md`) exists, and so does
 * every path under one of the repository's folders (`src/core/...`, `test/...`).
 */
const root = join(import.meta.dirname, "..");
const FOLDERS = ["src", "test", "docs", "examples", "bench", "scripts", "bin", "eslint-rules", ".ci"];
/**
 * Names the documents use that are not meant as files of the repository: link targets in the
 * examples of docs/api.md's link resolution, the folder of a hypothetical module in
 * docs/architecture.md, and the API reference that `npm run docs` generates.
 */
const NOT_FILES = new Set(["x.md", "x/README.md", "../guides/install.md", "src/core/notes", "docs/api"]);

export function missingFiles(
  file: string,
  text: string,
  exists = (path: string) => existsSync(path),
): string[] {
  const here = dirname(file);
  const found = (name: string) => NOT_FILES.has(name) || exists(join(here, name)) || exists(join(root, name));
  const missing = new Set<string>();
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(?:[a-z][a-z+.-]*:|#|`)/i.test(target!)) continue;
    const path = decodeURIComponent(target!.replace(/[#?].*$/, ""));
    if (!exists(join(here, path))) missing.add(path);
  }
  for (const [, name] of text.matchAll(/(?<![\w/.@-])([\w.-]+(?:\/[\w.-]+)*\.md)\b/g)) {
    if (!found(name!)) missing.add(name!);
  }
  const under = new RegExp(
    `(?<![\\w/.@-])((?:${FOLDERS.join("|").replace(".", "\\.")})/[\\w./*-]*[\\w*])`,
    "g",
  );
  for (const [, path] of text.matchAll(under)) {
    if (!NOT_FILES.has(path!) && !matches(path!, exists)) missing.add(path!);
  }
  return [...missing].sort();
}

/** Whether `path` (under the repository) exists; a `*` in a segment matches any characters there. */
function matches(path: string, exists: (path: string) => boolean, from = root): boolean {
  if (!path.includes("*")) return exists(join(from, path));
  const [segment, ...rest] = path.split("/") as [string, ...string[]];
  if (!segment.includes("*")) return matches(rest.join("/"), exists, join(from, segment));
  const pattern = new RegExp(`^${segment.split("*").map(escape).join(".*")}$`);
  if (!existsSync(from)) return false;
  return readdirSync(from).some(
    (name) => pattern.test(name) && (rest.length === 0 || matches(rest.join("/"), exists, join(from, name))),
  );
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

const documents = [
  join(root, "README.md"),
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(root, "docs", name)),
];

describe("documentation cites only files of the repository", () => {
  it.each(documents.map((file) => [relative(root, file), file]))("%s", (_name, file) => {
    expect(missingFiles(file, readFileSync(file, "utf8"))).toEqual([]);
  });

  it("catches a file outside the repository, a broken relative link and a missing source path", () => {
    const file = join(root, "docs", "example.md");
    const text = [
      "Roles as SPEC.md says (DESIGN.md, Errors).",
      "See [the server](server.md), [nowhere](gone.md#top) and [the guide](https://example.com/x.md).",
      "Code: `src/core/users/bootstrap.ts`, `src/core/no-such-file.ts`, `src/core/*/schemas.ts`.",
      "Tests: `src/core/*/no-such.test.ts`.",
    ].join("\n");
    expect(missingFiles(file, text)).toEqual([
      "DESIGN.md",
      "SPEC.md",
      "gone.md",
      "src/core/*/no-such.test.ts",
      "src/core/no-such-file.ts",
    ]);
  });
});
