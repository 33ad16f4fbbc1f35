import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, it } from "vitest";
import {
  RUNTIMES_COMMAND,
  RUNTIMES_DIRECTORY,
  RUNTIME_VERSIONS,
  cachedBinary,
  type RuntimeName,
} from "../../scripts/runtimes.js";

/**
 * Finds Deno and Bun for the tests that run docsbase on them. They are not devDependencies
 * (their binaries weigh 195 MB): `npm run runtimes` installs the pinned versions into
 * node_modules/.cache/runtimes (scripts/runtimes.ts), and one on PATH serves as well.
 */

export type { RuntimeName };

/** Where a runtime is looked for: the cache `npm run runtimes` fills, and the directories of PATH. */
export interface RuntimeSearch {
  readonly directory?: string;
  readonly path?: string | undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The runtime's binary: the pinned one in the cache first (the version the tests were written
 * against), else the first on PATH; `undefined` when neither exists.
 */
export function findRuntime(name: RuntimeName, search: RuntimeSearch = {}): string | undefined {
  const { directory = RUNTIMES_DIRECTORY, path = process.env["PATH"] } = search;
  const cached = cachedBinary(name, directory);
  if (executable(cached)) return cached;
  const names = process.platform === "win32" ? [`${name}.exe`, `${name}.cmd`] : [name];
  for (const folder of (path ?? "").split(delimiter).filter(Boolean))
    for (const file of names) if (executable(join(folder, file))) return join(folder, file);
  return undefined;
}

/** Under CI an absent runtime fails: a run cannot pass without having served docsbase on it. */
export function runtimesRequired(env: Record<string, string | undefined> = process.env): boolean {
  const ci = env["CI"]?.toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}

/** What to do about a runtime: run on its binary, skip saying how to get it, or (under CI) fail. */
export type RuntimePlan = { readonly run: string } | { readonly skip: string } | { readonly fail: string };

export function planRuntime(
  name: RuntimeName,
  search: RuntimeSearch = {},
  env: Record<string, string | undefined> = process.env,
): RuntimePlan {
  const binary = findRuntime(name, search);
  if (binary) return { run: binary };
  const missing = `${name} not found (neither in node_modules/.cache/runtimes nor on PATH): \`${RUNTIMES_COMMAND}\` installs ${name} ${RUNTIME_VERSIONS[name]}`;
  return runtimesRequired(env)
    ? { fail: `${missing}; under CI an absent runtime fails the run` }
    : { skip: missing };
}

/**
 * `describe(title, ...)` with the runtime's binary handed to the suite. Without the runtime the
 * suite is skipped under a title that says how to get it (and a warning in the run's output,
 * since vitest lists skipped suites only when it runs one file), or, under CI, replaced by one
 * failing test.
 */
export function describeOn(name: RuntimeName, title: string, suite: (binary: string) => void): void {
  const plan = planRuntime(name);
  if ("run" in plan) describe(title, () => suite(plan.run));
  else if ("fail" in plan)
    describe(title, () =>
      it(`needs ${name}`, () => {
        throw new Error(plan.fail);
      }),
    );
  else {
    console.warn(`skipped "${title}": ${plan.skip}`);
    describe.skip(`${title} (skipped: ${plan.skip})`, () => it(`needs ${name}`, () => undefined));
  }
}
