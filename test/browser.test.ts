import { build } from "esbuild";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumMissing, launch as launchChromium, profileDirectory } from "./support/chromium.js";

/**
 * docsbase in a real browser: the core and the IndexedDB adapter, bundled for the browser, run in
 * headless Chromium (Debian's, installed by .ci/run), write through the fetch handler, and read the
 * data back after a reload. Outside CI, a machine without Chromium skips this test.
 */

describe.skipIf(chromiumMissing)("browser (Chromium, IndexedDB)", () => {
  let server: Server;
  let origin: string;
  const profile = profileDirectory();

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
    const worker = (
      await build({
        entryPoints: [join(import.meta.dirname, "browser", "worker.ts")],
        bundle: true,
        platform: "browser",
        format: "esm",
        // Workers have no DOM: the `worker` condition picks DOM-free builds of dependencies (the
        // markdown parser's entity decoder uses `document` in its `browser` build).
        conditions: ["worker"],
        write: false,
        logLevel: "silent",
      })
    ).outputFiles[0]!.text;
    server = createServer((request, response) => {
      if (request.url === "/app.js") {
        response.writeHead(200, { "content-type": "text/javascript" }).end(script);
      } else if (request.url === "/worker.js") {
        response.writeHead(200, { "content-type": "text/javascript" }).end(worker);
      } else if (request.url?.startsWith("/v1/")) {
        // Only the service worker may answer the API: reaching the server is a failure.
        response.writeHead(599).end();
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
    profile.remove();
  });

  const launch = () => launchChromium(profile.path);

  it("writes content in a page and reads it back after a reload", async () => {
    const context = await launch();
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

  it("answers the page's /v1 requests from a service worker, without the server", async () => {
    const context = await launch();
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(origin);
      const results = await page.evaluate(async () => {
        await navigator.serviceWorker.register("/worker.js", { type: "module" });
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) {
          await new Promise((resolve) =>
            navigator.serviceWorker.addEventListener("controllerchange", resolve),
          );
        }
        const headers = {
          authorization: "Bearer dbt_service_worker_token",
          "content-type": "application/json",
        };
        const created = await fetch("/v1/orgs", {
          method: "POST",
          headers,
          body: JSON.stringify({ title: "In a worker" }),
        });
        const { id } = await created.json();
        const read = await fetch(`/v1/orgs/${id}`, { headers });
        return { created: created.status, read: read.status, title: (await read.json()).title };
      });
      expect(results).toEqual({ created: 201, read: 200, title: "In a worker" });
    } finally {
      await context.close();
    }
  });
});
