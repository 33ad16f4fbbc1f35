import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import semver from "semver";

/**
 * Checks that package.json's `engines.node` is honest: every Node version it allows is allowed by
 * every package in package-lock.json (runtime and development alike, since `npm install` checks
 * both and warns `EBADENGINE` for each that refuses the running Node). Run it after changing
 * dependencies:
 *
 *     npx tsx scripts/engines.ts
 *
 * test/engines.test.ts runs the same check.
 */

const root = join(import.meta.dirname, "..");

/** A locked package whose `engines.node` leaves out some version ours allows. */
export interface EnginesConflict {
  /** Its path in the lock, e.g. `node_modules/undici`. */
  readonly path: string;
  readonly version: string;
  readonly node: string;
}

interface Lock {
  readonly packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

/** The packages of `lock` whose `engines.node` does not include every version `range` allows. */
export function enginesConflicts(lock: Lock, range: string): EnginesConflict[] {
  const conflicts: EnginesConflict[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    // The root entry is our own package.json; old packages may write engines as an array.
    if (path === "" || !entry.engines || Array.isArray(entry.engines)) continue;
    const node = entry.engines.node;
    if (node === undefined) continue;
    if (!semver.validRange(node) || !semver.subset(range, node)) {
      conflicts.push({ path, version: entry.version ?? "?", node });
    }
  }
  return conflicts;
}

/** package.json's `engines.node` and package-lock.json, as the repository has them. */
export function installedEngines(): { range: string; lock: Lock } {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    engines: { node: string };
  };
  return {
    range: manifest.engines.node,
    lock: JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as Lock,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { range, lock } = installedEngines();
  const conflicts = enginesConflicts(lock, range);
  for (const { path, version, node } of conflicts) console.log(`${path}@${version}: node ${node}`);
  console.log(
    conflicts.length === 0
      ? `every locked package allows node ${range}`
      : `${conflicts.length} locked packages refuse part of node ${range}`,
  );
  process.exitCode = conflicts.length === 0 ? 0 : 1;
}
