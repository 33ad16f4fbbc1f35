/**
 * The browser bundle (issue 27, item 6): what a page or a service worker loads when it imports
 * `docsbase` and `docsbase/adapters/indexeddb` as docs/browser.md shows (test/support/browser-bundle.ts
 * bundles it). `npm run bench -- bundle [--baseline <git revision>]`; figures in docs/performance.md, "Browser bundle (issue 27)".
 */
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BundleReport, kib, measureBundle } from "../test/support/browser-bundle.js";
import { loadAverage } from "./load.js";

const ROOT = resolve(import.meta.dirname, "..");

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

function print(label: string, report: BundleReport, contributors: boolean) {
  const { initial } = report;
  console.log(
    `${label}: initial load (${initial.chunks} chunks) ${kb(initial.raw)} raw, ${kb(initial.gzip)} gzipped`,
  );
  for (const chunk of report.lazy) {
    console.log(
      `  lazy ${chunk.file.padEnd(28)} ${kb(chunk.raw).padStart(10)} raw ${kb(chunk.gzip).padStart(10)} gzipped  (${chunk.top})`,
    );
  }
  if (!contributors) return;
  console.log("  top contributors to the initial load (minified bytes):");
  for (const { name, bytes } of report.contributors.slice(0, 12)) {
    console.log(`    ${name.padEnd(36)} ${kib(bytes).padStart(10)}`);
  }
}

export async function benchBundle(): Promise<void> {
  const start = performance.now();
  // `--baseline <revision>` (one or more): that revision's src/ too, in the same run (extracted under the
  // checkout so that it resolves the same node_modules).
  const revisions = process.argv.flatMap((arg, i) => (arg === "--baseline" ? [process.argv[i + 1]!] : []));
  for (const revision of revisions) {
    const directory = mkdtempSync(join(ROOT, ".bench-baseline-"));
    try {
      execSync(`git archive ${revision} src | tar -x -C ${directory}`, { cwd: ROOT });
      const report = await measureBundle({ sources: join(directory, "src") });
      print(`baseline ${revision} (src/), code splitting`, report, true);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  print("sources (src/), code splitting", await measureBundle("src"), true);
  if (existsSync(join(ROOT, "dist", "index.js"))) {
    // What a user bundles; `npm run build` first, or this part is left out.
    print("built package (dist/), code splitting", await measureBundle("dist"), false);
    print("built package (dist/), one file (a service worker)", await measureBundle("dist", false), false);
  } else {
    console.log("(no dist/: `npm run build` first to measure the built package too)");
  }
  console.log(`(bundled in ${Math.round(performance.now() - start)} ms; load average ${loadAverage()})`);
}
