import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumMissing } from "./support/chromium.js";
import { docsModule, docsSections } from "./support/docs-examples.js";

/**
 * docs/testing.md's Playwright setup, run as written in headless Chromium (Debian's, installed by
 * .ci/run): the example's `page` is a page of this browser. Outside CI, a machine without Chromium
 * skips this test.
 */
const folder = join(import.meta.dirname, ".docs-examples-playwright");

describe.skipIf(chromiumMissing)("docs/testing.md: the Playwright setup", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("routes the page's GitBook API requests to the double", async () => {
    const section = docsSections().find((found) => found.heading === "With your test runner");
    const block = section?.blocks.find(
      (found) => found.kind === "no-run" && found.code.includes("page.route"),
    );
    expect(block, "docs/testing.md shows the Playwright setup").toBeDefined();
    mkdirSync(folder, { recursive: true });
    const file = join(folder, "playwright.ts");
    writeFileSync(file, docsModule(block!.code, "run", ["page"]));
    const example = (await import(/* @vite-ignore */ file)) as { default: (page: unknown) => Promise<void> };
    const page = await browser.newPage();
    try {
      await example.default(page);
    } finally {
      await page.close();
    }
  });
});
