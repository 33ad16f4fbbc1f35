/**
 * Builds the two examples with esbuild: `node build.js`, then serve `public/` over http (a service
 * worker needs http://localhost or https), or `node build.js --serve` to build and serve it on
 * http://127.0.0.1:8000 (the service-worker example is `/`, the in-page one `/in-page.html`).
 *
 * Plain `--platform=browser` builds: no export conditions to set, for the page or the worker.
 */
import * as esbuild from "esbuild";
import { join } from "node:path";

const here = import.meta.dirname;
const common = { bundle: true, format: "esm", platform: "browser", minify: true, sourcemap: true };

// The page: code splitting on, so that the parts only some operations need (PDF export, OpenAPI
// parsing, certificates) are chunks of their own, fetched when first used.
await esbuild.build({
  ...common,
  entryPoints: [join(here, "src", "in-page.js")],
  outdir: join(here, "public", "build"),
  splitting: true,
});

// The service worker: one file. A service worker may not `import()`, so esbuild inlines the parts
// the page loads lazily; the worker script is fetched once, on install, and kept by the browser.
await esbuild.build({
  ...common,
  entryPoints: [join(here, "src", "service-worker.js")],
  outfile: join(here, "public", "service-worker.js"),
});

if (process.argv.includes("--serve")) {
  const server = await (
    await esbuild.context({})
  ).serve({
    servedir: join(here, "public"),
    host: "127.0.0.1",
    port: 8000,
  });
  console.log(`http://${server.hosts[0]}:${server.port}/`);
}
