import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "adapters/memory/index": "src/adapters/memory/index.ts",
    "adapters/sqlite/index": "src/adapters/sqlite/index.ts",
    "adapters/indexeddb/index": "src/adapters/indexeddb/index.ts",
    "adapters/postgres/index": "src/adapters/postgres/index.ts",
    "testing/index": "src/testing/index.ts",
    "sync/index": "src/sync/index.ts",
    "cli/main": "src/cli/main.ts",
  },
  format: ["esm"],
  target: "es2022",
  // tsup keeps `dependencies` and `peerDependencies` external, not `optionalDependencies`.
  external: ["better-sqlite3"],
  // The markdown parser's packages, bundled into dist so that their import of
  // decode-named-character-reference is resolved here, to its plain build: that package's `browser`
  // export creates a DOM element when imported, which fails in a Web Worker or a service worker
  // (`document is not defined`). So a user's `esbuild --bundle --platform=browser` (or Vite's
  // default) needs no `worker` condition. Every package that imports it, directly or through another,
  // is here; the rest of their dependencies stay external.
  noExternal: [/^micromark/, /^mdast-util-/, "decode-named-character-reference"],
  dts: {
    entry: [
      "src/index.ts",
      "src/adapters/memory/index.ts",
      "src/adapters/sqlite/index.ts",
      "src/adapters/indexeddb/index.ts",
      "src/adapters/postgres/index.ts",
      "src/testing/index.ts",
      "src/sync/index.ts",
    ],
  },
  sourcemap: true,
  clean: true,
  splitting: true,
  tsconfig: "tsconfig.build.json",
});
