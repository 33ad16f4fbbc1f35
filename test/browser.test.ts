import { build } from "esbuild";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * docsbase in a real browser: the core and the IndexedDB adapter, bundled for the browser, run in
 * headless Chromium (Debian's, installed by .ci/run), write through the fetch handler, and read the
 * data back after a reload. Outside CI, a machine without Chromium skips this test.
 */
const CHROMIUM = "/usr/bin/chromium";
const available = existsSync(CHROMIUM);

describe.skipIf(!available && !process.env["CI"])("browser (Chromium, IndexedDB)", () => {
  let server: Server;
  let origin: string;
  const profile = mkdtempSync(join(tmpdir(), "docsbase-chromium-"));

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [join(import.meta.dirname, "browser", "app.ts")],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const script = bundle.outputFiles[0]!.text;
    server = createServer((request, response) => {
      if (request.url === "/app.js") {
        response.writeHead(200, { "content-type": "text/javascript" }).end(script);
      } else {
        response
          .writeHead(200, { "content-type": "text/html" })
          .end('<!doctype html><script type="module" src="/app.js"></script>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(profile, { recursive: true, force: true });
  });

  it("writes content in a page and reads it back after a reload", async () => {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(origin);
      await page.waitForFunction(() => "docsbaseScenario" in globalThis);
      const ids = await page.evaluate(() => (globalThis as any).docsbaseScenario.write());
      expect(ids.statuses).toEqual([201, 201, 201]);
      await page.reload();
      await page.waitForFunction(() => "docsbaseScenario" in globalThis);
      const read = await page.evaluate((saved) => (globalThis as any).docsbaseScenario.read(saved), ids);
      expect(read).toEqual({
        status: 200,
        title: "Written offline",
        markdown: "# Hello\n\nStored in IndexedDB.",
        hits: 1,
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
