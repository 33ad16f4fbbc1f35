import { build } from "esbuild";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Runtime boundaries (STYLE.md, rule 6): the core, the HTTP handler, the memory adapter and the
 * test double import nothing runtime-specific, so they run on Node, Deno, Bun, browsers and
 * service workers. Node-only code lives in src/adapters/sqlite and src/cli; idb only in
 * src/adapters/indexeddb, which bundles for the browser too; pg only in src/adapters/postgres.
 */
const root = join(import.meta.dirname, "..");
const NODE_ONLY = [/^src\/cli\//, /\.test\.ts$/];
const FORBIDDEN = /from\s+["'](node:[^"']+|better-sqlite3|idb|fs|path|os|child_process|crypto)["']/;
/** The IndexedDB adapter is built on idb; it still must not import Node modules, and it bundles for browsers. */
const IDB_ONLY = /^src\/adapters\/indexeddb\//;
const IDB_IMPORT = /from\s+["']idb["']/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("runtime boundaries", () => {
  it("no runtime-specific import outside the CLI (the SQLite adapter takes its driver)", () => {
    const offenders = sourceFiles(join(root, "src"))
      .map((path) => relative(root, path))
      .filter((path) => !NODE_ONLY.some((pattern) => pattern.test(path)))
      .filter((path) => {
        // Usage examples in doc comments (`import { Database } from "bun:sqlite"`) are not imports.
        const source = readFileSync(join(root, path), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
        return FORBIDDEN.test(IDB_ONLY.test(path) ? source.replace(IDB_IMPORT, "") : source);
      });
    expect(offenders).toEqual([]);
  });

  it("pg is loaded by the PostgreSQL adapter only, and only when it makes its own pool", () => {
    const PG = /(from\s+|import\s*\()\s*["']pg["']/;
    const users = sourceFiles(join(root, "src"))
      .map((path) => relative(root, path))
      .filter((path) => !/\.test\.ts$/.test(path))
      .filter((path) => PG.test(readFileSync(join(root, path), "utf8").replace(/\/\*[\s\S]*?\*\//g, "")));
    expect(users).toEqual(["src/adapters/postgres/index.ts"]);
    const adapter = readFileSync(join(root, "src/adapters/postgres/index.ts"), "utf8");
    expect(adapter, "a static import would load pg for a caller passing its own pool").not.toMatch(
      /from\s+["']pg["']/,
    );
  });

  it("the browser bundle check fails on a node import (control)", async () => {
    const attempt = build({
      stdin: { contents: 'import { readFileSync } from "node:fs"; console.log(readFileSync);' },
      bundle: true,
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    await expect(attempt).rejects.toThrow(/node:fs/);
  });

  it.each([
    "src/index.ts",
    "src/adapters/memory/index.ts",
    "src/adapters/indexeddb/index.ts",
    "src/testing/double.ts",
    "src/sync/index.ts",
  ])("%s bundles for the browser platform", async (entry) => {
    const result = await build({
      entryPoints: [join(root, entry)],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(/require\(["']node:/);
  });
});
