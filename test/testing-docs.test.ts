import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { docsModule, docsSections } from "./support/docs-examples.js";

/**
 * Every `ts` block of docs/testing.md, run as written: the blocks of a `##` section, in order, make
 * one module, run as a test named by the heading. So a new section's example runs without editing
 * this file. How a block is run depends on its info string:
 *
 * - ` ```ts `: the statements of the section's example, run inside a test;
 * - ` ```ts test-file `: a whole test file (hooks, `describe`, `it`), whose tests are declared
 *   under the section's heading (used by the test-runner setups);
 * - ` ```ts no-run `: shown, not run; only for what cannot run in this process (another browser,
 *   another runner), with the reason beside it in the docs and a test of its own elsewhere.
 *
 * The shared preamble: `import "docsbase/testing"` (or `"docsbase"`) resolves to the sources, and
 * `createTestDocsbase` and vitest's `expect`, `describe`, `it`, `test`, `beforeEach`... are
 * imported for a section that uses them without importing or declaring them (which is also how
 * a Jest example's globals run here, under vitest's compatible ones).
 */
// Inside `test/`, so that the examples' bare imports (`@gitbook/api`, `msw`) resolve as here.
const folder = join(import.meta.dirname, ".docs-examples");

const slug = (heading: string) => heading.toLowerCase().replace(/[^a-z0-9]+/g, "-");

mkdirSync(folder, { recursive: true });
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("docs/testing.md", () => {
  it("has examples, each under a heading of its own", () => {
    const headings = docsSections().map((section) => section.heading);
    if (headings.length < 3 || new Set(headings).size !== headings.length)
      throw new Error(`unexpected sections: ${headings.join(", ")}`);
  });

  for (const { heading, blocks } of docsSections()) {
    const run = blocks.filter((block) => block.kind === "run").map((block) => block.code);
    if (run.length > 0) {
      const file = join(folder, `${slug(heading)}.ts`);
      writeFileSync(file, docsModule(run.join("\n"), "run"));
      it(heading, async () => {
        const example = (await import(/* @vite-ignore */ file)) as { default: () => Promise<void> };
        await example.default();
      });
    }
    blocks
      .filter((block) => block.kind === "test-file")
      .forEach((block, index) => {
        const file = join(folder, `${slug(heading)}-file-${index}.ts`);
        writeFileSync(file, docsModule(block.code, "test-file"));
        describe(heading, async () => {
          await import(/* @vite-ignore */ file);
        });
      });
  }
});
