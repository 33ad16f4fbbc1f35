/**
 * The browser bundle a user of docs/browser.md gets: `docsbase` and `docsbase/adapters/indexeddb`,
 * bundled by esbuild (minified, ESM, platform browser, code splitting on), measured from its
 * metafile. Used by `npm run bench -- bundle` and by test/browser-bundle.test.ts.
 *
 * The initial load is the entry chunk and every chunk it imports statically, transitively: what the
 * browser fetches before the first line runs. Chunks reached only through `import()` are lazy:
 * fetched when an operation first needs them. Contributors are the input files' bytes in the
 * output, grouped by package (`src (docsbase)` for docsbase's own code).
 */
import { build, type Metafile } from "esbuild";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const ROOT = resolve(import.meta.dirname, "..", "..");

/** What a browser user writes (docs/browser.md). */
const ENTRY = `
import { createDocsbase } from "docsbase";
import { indexedDbStorage } from "docsbase/adapters/indexeddb";
const docsbase = createDocsbase({ storage: indexedDbStorage({ name: "docsbase" }) });
globalThis.docsbaseFetch = (request) => docsbase.fetch(request);
`;

export interface BundleReport {
  /** Every input file in the initial load, with its bytes in the output. */
  initialInputs: Map<string, number>;
  /** Bytes of the initial load (entry and its static imports), raw and gzipped (each chunk alone). */
  initial: { raw: number; gzip: number; chunks: number };
  lazy: { file: string; raw: number; gzip: number; top: string }[];
  contributors: { name: string; bytes: number }[];
}

/**
 * Bundles the browser entry and measures it: with `docsbase` resolved to this checkout's sources,
 * or to the built package (`dist/`, through the package's `exports`), which is what a user bundles.
 * Without `splitting` (a service worker's bundle: it may not `import()`), it is all one file.
 * `{ sources }`: another copy of `src/` (an older revision's), resolving packages from here.
 */
export async function measureBundle(
  from: "src" | "dist" | { sources: string } = "src",
  splitting = true,
): Promise<BundleReport> {
  const sources = from === "src" ? join(ROOT, "src") : from === "dist" ? undefined : from.sources;
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: "entry.js", loader: "js" },
    ...(sources ? { alias: { docsbase: sources } } : {}),
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting,
    outdir: join(ROOT, "bench-bundle-out"),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const text = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const name = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  const entry = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!;
  const initial = new Set<string>();
  const visit = (path: string) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of outputs[path]!.imports) {
      if (imported.kind === "import-statement") visit(imported.path);
    }
  };
  visit(entry);
  const size = (path: string) => {
    const bytes = text.get(join(ROOT, path)) ?? text.get(resolve(ROOT, path))!;
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  let raw = 0;
  let gzip = 0;
  for (const path of initial) {
    const measured = size(path);
    raw += measured.raw;
    gzip += measured.gzip;
  }
  const lazy = Object.keys(outputs)
    .filter((path) => !initial.has(path) && path.endsWith(".js"))
    .map((path) => ({ file: name(path), ...size(path), top: topInputs(outputs[path]!, 3) }))
    .sort((a, b) => b.gzip - a.gzip);
  const initialInputs = new Map<string, number>();
  for (const path of initial) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path]!.inputs)) {
      initialInputs.set(input, (initialInputs.get(input) ?? 0) + bytesInOutput);
    }
  }
  return {
    initial: { raw, gzip, chunks: initial.size },
    initialInputs,
    lazy,
    contributors: contributors(outputs, initial),
  };
}

export function packageOf(input: string): string {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return /(^|\/)src\//.test(input) ? "src (docsbase)" : input;
  const parts = input.slice(at + "node_modules/".length).split("/");
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function contributors(outputs: Metafile["outputs"], initial: Set<string>) {
  const totals = new Map<string, number>();
  for (const path of initial) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path]!.inputs)) {
      totals.set(packageOf(input), (totals.get(packageOf(input)) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

function topInputs(output: Metafile["outputs"][string], count: number): string {
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    totals.set(packageOf(input), (totals.get(packageOf(input)) ?? 0) + bytesInOutput);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${kib(bytes)}`)
    .join(", ");
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
