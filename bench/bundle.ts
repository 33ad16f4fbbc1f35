/**
 * The browser bundle (issue 27, item 6): what a page or a service worker loads when it imports
 * `docsbase` and `docsbase/adapters/indexeddb` as docs/browser.md shows (test/support/browser-bundle.ts
 * bundles it). `npm run bench -- bundle`; figures in docs/performance.md, "Browser bundle (issue 27)".
 */
import { kib, measureBundle } from "../test/support/browser-bundle.js";

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export async function benchBundle(): Promise<void> {
  const start = performance.now();
  const report = await measureBundle();
  const { initial } = report;
  console.log(
    `browser bundle, initial load (${initial.chunks} chunks): ${kb(initial.raw)} raw, ${kb(initial.gzip)} gzipped`,
  );
  for (const chunk of report.lazy) {
    console.log(
      `  lazy ${chunk.file.padEnd(24)} ${kb(chunk.raw).padStart(10)} raw ${kb(chunk.gzip).padStart(10)} gzipped  (${chunk.top})`,
    );
  }
  console.log("top contributors to the initial load (minified bytes):");
  for (const { name, bytes } of report.contributors.slice(0, 12)) {
    console.log(`  ${name.padEnd(36)} ${kib(bytes).padStart(10)}`);
  }
  console.log(`(bundled in ${Math.round(performance.now() - start)} ms)`);
}
