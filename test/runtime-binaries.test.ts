import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUNTIME_VERSIONS, cachePackage, cachedBinary } from "../scripts/runtimes.js";
import { findRuntime, planRuntime, runtimesRequired } from "./support/runtimes.js";

/**
 * Deno and Bun are kept off the default install (195 MB of binaries): `npm run runtimes` installs
 * them into a cache, and test/runtimes.test.ts finds them there or on PATH, skips without them,
 * and fails without them under CI.
 */
const root = join(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "docsbase-runtime-binaries-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a file that stands for a runtime's binary, executable or not. */
function binary(path: string, mode = 0o755): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

describe("the default install", () => {
  it("has neither deno nor bun among its dependencies, nor their install scripts allowed", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const fields = [
      "dependencies",
      "devDependencies",
      "optionalDependencies",
      "peerDependencies",
      "allowScripts",
    ];
    const named = fields.flatMap((field) =>
      Object.keys(manifest[field] ?? {})
        .filter((name) => name in RUNTIME_VERSIONS)
        .map((name) => `${field}.${name}`),
    );
    expect(named).toEqual([]);
    expect(manifest.scripts.runtimes).toBe("tsx scripts/runtimes.ts");
  });

  it("pins exact versions in the cache's package.json, whose install scripts put the binaries in place", () => {
    for (const version of Object.values(RUNTIME_VERSIONS)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(cachePackage()).toMatchObject({
      private: true,
      dependencies: RUNTIME_VERSIONS,
      allowScripts: { deno: true, bun: true },
    });
  });
});

describe("findRuntime", () => {
  const cache = join(scratch, "cache");
  const onPath = join(scratch, "bin");
  binary(join(onPath, "deno"));
  binary(join(onPath, "bun"), 0o644);
  const path = [join(scratch, "nothing-here"), onPath].join(delimiter);

  it("finds a runtime on PATH when the cache has none, and passes over a file that is not executable", () => {
    expect(findRuntime("deno", { directory: cache, path })).toBe(join(onPath, "deno"));
    expect(findRuntime("bun", { directory: cache, path })).toBeUndefined();
  });

  it("prefers the pinned binary in the cache to one on PATH", () => {
    const cached = binary(cachedBinary("deno", cache));
    expect(findRuntime("deno", { directory: cache, path })).toBe(cached);
  });

  it("finds nothing with neither", () => {
    expect(findRuntime("bun", { directory: join(scratch, "empty"), path: "" })).toBeUndefined();
  });
});

describe("without a runtime", () => {
  const nowhere = { directory: join(scratch, "empty"), path: "" };

  it("the suite is skipped with a message that says how to install it", () => {
    const plan = planRuntime("bun", nowhere, {});
    expect(plan).toEqual({
      skip: expect.stringContaining(`\`npm run runtimes\` installs bun ${RUNTIME_VERSIONS.bun}`),
    });
  });

  it("under CI the run fails instead, naming the same command", () => {
    const plan = planRuntime("deno", nowhere, { CI: "true" });
    expect(plan).toEqual({ fail: expect.stringContaining("`npm run runtimes` installs deno") });
    expect(plan).toEqual({ fail: expect.stringContaining("under CI an absent runtime fails the run") });
  });

  it("reads CI as most CI services set it", () => {
    expect([undefined, "", "0", "false", "FALSE"].map((CI) => runtimesRequired({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(["true", "1", "yes"].map((CI) => runtimesRequired({ CI }))).toEqual([true, true, true]);
  });

  it("with the runtime present, the suite runs on it, CI or not", () => {
    const cache = join(scratch, "present");
    const cached = binary(cachedBinary("bun", cache));
    expect(planRuntime("bun", { directory: cache, path: "" }, { CI: "true" })).toEqual({ run: cached });
  });
});
