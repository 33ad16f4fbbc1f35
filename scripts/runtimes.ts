import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Installs the Deno and Bun that test/runtimes.test.ts serves docsbase on, at the versions pinned
 * here, into node_modules/.cache/runtimes (a project of its own, outside package.json):
 *
 *     npm run runtimes
 *
 * They are not devDependencies because their binaries weigh 195 MB, which every `npm install`
 * would download for two test files. Both come from the npm registry: the `deno` and `bun`
 * packages each depend on optional platform packages (`@deno/linux-x64-glibc`,
 * `@oven/bun-linux-x64`...), and their postinstall puts the one npm picked where their `bin`
 * points, so the cache's package.json allows those two install scripts (npm runs no other).
 * test/support/runtimes.ts looks for the binaries here first, then on PATH.
 */

const root = join(import.meta.dirname, "..");

/** The versions the tests run, exact: the only place they are written. */
export const RUNTIME_VERSIONS = { deno: "2.9.6", bun: "1.4.5" } as const;

export type RuntimeName = keyof typeof RUNTIME_VERSIONS;

/** Where `npm run runtimes` installs them. */
export const RUNTIMES_DIRECTORY = join(root, "node_modules", ".cache", "runtimes");

/** The command that installs them, as messages name it. */
export const RUNTIMES_COMMAND = "npm run runtimes";

/** Where the installed runtime's binary is (npm links each package's `bin` there). */
export function cachedBinary(name: RuntimeName, directory = RUNTIMES_DIRECTORY): string {
  return join(directory, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);
}

/** The cache's own package.json: the pinned versions, and their install scripts allowed. */
export function cachePackage(): Record<string, unknown> {
  return {
    name: "docsbase-test-runtimes",
    private: true,
    description: `Deno and Bun for docsbase's tests, installed by \`${RUNTIMES_COMMAND}\``,
    dependencies: { ...RUNTIME_VERSIONS },
    allowScripts: Object.fromEntries(Object.keys(RUNTIME_VERSIONS).map((name) => [name, true])),
  };
}

function install(): void {
  mkdirSync(RUNTIMES_DIRECTORY, { recursive: true });
  writeFileSync(join(RUNTIMES_DIRECTORY, "package.json"), `${JSON.stringify(cachePackage(), null, 2)}\n`);
  // `--prefix` makes the cache the project npm installs; it is rerun safely (npm finds it up to date).
  execFileSync(
    "npm",
    ["install", "--prefix", RUNTIMES_DIRECTORY, "--no-package-lock", "--no-audit", "--no-fund"],
    {
      stdio: "inherit",
      shell: process.platform === "win32",
    },
  );
  for (const [name, version] of Object.entries(RUNTIME_VERSIONS) as [RuntimeName, string][]) {
    const binary = cachedBinary(name);
    const answer = execFileSync(binary, ["--version"], {
      encoding: "utf8",
      shell: process.platform === "win32",
    });
    // `deno --version` answers "deno 2.9.6 (stable, ...)", `bun --version` "1.4.5".
    if (!answer.includes(version))
      throw new Error(`${binary} --version answered ${answer.trim()}, not ${version}`);
    console.log(`${name} ${version}: ${relative(root, binary)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) install();
