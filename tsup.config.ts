import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "adapters/memory/index": "src/adapters/memory/index.ts",
    "adapters/sqlite/index": "src/adapters/sqlite/index.ts",
    "adapters/indexeddb/index": "src/adapters/indexeddb/index.ts",
    "adapters/postgres/index": "src/adapters/postgres/index.ts",
    "testing/index": "src/testing/index.ts",
    "cli/main": "src/cli/main.ts",
  },
  format: ["esm"],
  target: "es2022",
  // tsup keeps `dependencies` and `peerDependencies` external, not `optionalDependencies`.
  external: ["better-sqlite3"],
  dts: {
    entry: [
      "src/index.ts",
      "src/adapters/memory/index.ts",
      "src/adapters/sqlite/index.ts",
      "src/adapters/indexeddb/index.ts",
      "src/adapters/postgres/index.ts",
      "src/testing/index.ts",
    ],
  },
  sourcemap: true,
  clean: true,
  splitting: true,
  tsconfig: "tsconfig.build.json",
});
