import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Installs GitBook's CLI (`@gitbook/cli`), which test/gitbook-cli.test.ts runs against
 * `docsbase serve`, at the version pinned here, into node_modules/.cache/gitbook-cli (a project
 * of its own, outside package.json):
 *
 *     npm run gitbook-cli
 *
 * It is not a devDependency because its postinstall downloads a `cloudflared` binary from GitHub
 * (for `gitbook dev`'s tunnel), which `npm ci` would run and which cannot work offline. Here it is
 * installed with `--ignore-scripts`: no command the tests run needs that binary, and esbuild,
 * which `gitbook publish` bundles the integration's script with, finds its platform binary in its
 * optional dependency (`@esbuild/linux-x64`...) without a script. `@gitbook/api` is pinned beside
 * it, at the reference version docsbase implements, since the CLI asks for any version of it.
 * test/support/gitbook-cli.ts looks for the CLI here.
 */

const root = join(import.meta.dirname, "..");

/** The versions the tests run, exact: the only place they are written. */
export const GITBOOK_CLI_VERSIONS = { "@gitbook/cli": "0.25.1", "@gitbook/api": "0.146.0" } as const;

/** Where `npm run gitbook-cli` installs it. */
export const GITBOOK_CLI_DIRECTORY = join(root, "node_modules", ".cache", "gitbook-cli");

/** The command that installs it, as messages name it. */
export const GITBOOK_CLI_COMMAND = "npm run gitbook-cli";

/** The CLI's entry script, run with `node` (the package's `bin`). */
export function gitbookCliScript(directory = GITBOOK_CLI_DIRECTORY): string {
  return join(directory, "node_modules", "@gitbook", "cli", "cli.js");
}

function install(): void {
  mkdirSync(GITBOOK_CLI_DIRECTORY, { recursive: true });
  const manifest = {
    name: "docsbase-test-gitbook-cli",
    private: true,
    description: `GitBook's CLI for docsbase's tests, installed by \`${GITBOOK_CLI_COMMAND}\``,
    dependencies: { ...GITBOOK_CLI_VERSIONS },
  };
  writeFileSync(join(GITBOOK_CLI_DIRECTORY, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // `--prefix` makes the cache the project npm installs; it is rerun safely (npm finds it up to date).
  execFileSync(
    "npm",
    [
      "install",
      "--prefix",
      GITBOOK_CLI_DIRECTORY,
      "--ignore-scripts",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
    ],
    { stdio: "inherit", shell: process.platform === "win32" },
  );
  const script = gitbookCliScript();
  const answer = execFileSync(process.execPath, [script, "--version"], { encoding: "utf8" }).trim();
  const version = GITBOOK_CLI_VERSIONS["@gitbook/cli"];
  if (answer !== version) throw new Error(`${script} --version answered ${answer}, not ${version}`);
  console.log(`@gitbook/cli ${version}: ${relative(root, script)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) install();
