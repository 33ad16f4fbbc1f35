import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The examples of docs/testing.md as modules (test/testing-docs.test.ts runs them; a test of
 * another project may run a `ts no-run` one where it can, as test/testing-playwright.test.ts does).
 */
const root = join(import.meta.dirname, "..", "..");

export interface DocsSection {
  readonly heading: string;
  readonly blocks: readonly { readonly kind: "run" | "test-file" | "no-run"; readonly code: string }[];
}

/** The `##` sections of docs/testing.md that hold `ts` blocks. */
export function docsSections(
  markdown = readFileSync(join(root, "docs", "testing.md"), "utf8"),
): DocsSection[] {
  const sections: DocsSection[] = [];
  for (const part of markdown.split(/^## /m).slice(1)) {
    const heading = part.slice(0, part.indexOf("\n")).trim();
    const blocks = [...part.matchAll(/^```ts( [\w-]+)?\n([\s\S]*?)^```$/gm)].map(([, info, code]) => ({
      kind: (info?.trim() || "run") as "run" | "test-file" | "no-run",
      code: code ?? "",
    }));
    if (blocks.length > 0) sections.push({ heading, blocks });
  }
  return sections;
}

const SOURCES: Record<string, string> = {
  "docsbase/testing": join(root, "src", "testing", "index.ts"),
  docsbase: join(root, "src", "index.ts"),
};
const PREAMBLE: Record<string, string> = {
  createTestDocsbase: SOURCES["docsbase/testing"]!,
  ...Object.fromEntries(
    ["expect", "vi", "describe", "it", "test", "beforeEach", "afterEach", "beforeAll", "afterAll"].map(
      (name) => [name, "vitest"],
    ),
  ),
};

/**
 * A module of `code`: its imports hoisted, `docsbase` imports pointed at the sources, the preamble's
 * names imported where used, and (for an example) the rest inside `export default async function`.
 */
export function docsModule(code: string, kind: "run" | "test-file", parameters: string[] = []): string {
  const imports: string[] = [];
  const body = code.replace(/^import [\s\S]*?from\s+"([^"]+)";?\n/gm, (statement, from: string) => {
    imports.push(SOURCES[from] ? statement.replace(`"${from}"`, JSON.stringify(SOURCES[from])) : statement);
    return "";
  });
  const imported = imports.join("\n");
  for (const [name, from] of Object.entries(PREAMBLE)) {
    const used = new RegExp(`\\b${name}\\b`).test(body);
    const declared =
      parameters.includes(name) || new RegExp(`\\b(const|let|var|function|class)\\s+${name}\\b`).test(body);
    if (used && !declared && !new RegExp(`\\b${name}\\b`).test(imported))
      imports.push(`import { ${name} } from ${JSON.stringify(from)};`);
  }
  const main =
    kind === "run" ? `export default async function example(${parameters.join(", ")}) {\n${body}\n}` : body;
  return `${imports.join("\n")}\n${main}\n`;
}
