import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "tsup";

const root = join(import.meta.dirname, "..", "..");

/**
 * Bundles test/support/pg-instance.ts as `buildCli()` (serve-process.ts) bundles the CLI: one file
 * under node_modules/.cache, the drivers left external, so that a test starts it in a few seconds
 * rather than through tsx's loader. Its `script` is the `entry` of a `ServeProcesses`.
 */
export async function buildInstance(): Promise<{ readonly script: string; remove(): void }> {
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  const directory = mkdtempSync(join(root, "node_modules", ".cache", "docsbase-pg-instance-"));
  try {
    await build({
      config: false,
      entry: { instance: join(root, "test/support/pg-instance.ts") },
      outDir: directory,
      outExtension: () => ({ js: ".mjs" }),
      format: ["esm"],
      target: "es2022",
      external: ["@hono/node-server", "better-sqlite3", "pg"],
      tsconfig: join(root, "tsconfig.build.json"),
      dts: false,
      sourcemap: false,
      splitting: false,
      silent: true,
    });
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    script: join(directory, "instance.mjs"),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
