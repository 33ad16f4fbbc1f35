import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * examples/consumer is a project of its own that installs docsbase from this repository
 * (`"docsbase": "file:../.."`, so the built `dist/`, which `npm test` builds first) and tests its
 * application code against the test double. Here it is installed from its lockfile and its own
 * test command runs, as a user of the package would run it.
 */
const example = join(import.meta.dirname, "..", "examples", "consumer");

/** The parent vitest's variables would tell the example's vitest it runs inside a worker. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(VITEST|TINYPOOL|NODE_OPTIONS$|FORCE_COLOR$)/.test(name)) env[name] = value;
  return { ...env, NO_COLOR: "1" };
}

describe("examples/consumer", () => {
  it("installs docsbase from the repository and passes its own test command", { timeout: 240_000 }, () => {
    const options = { cwd: example, encoding: "utf8" as const, env: cleanEnv() };
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], options);
    const output = execFileSync("npm", ["test", "--", "--reporter=verbose"], { ...options, stdio: "pipe" });
    expect(output).toMatch(/Tests\s+5 passed \(5\)/);
    for (const feature of ["fresh", "once", "from the fixture", "Retry-After", "refused"])
      expect(output).toMatch(new RegExp(`✓ .*${feature}`));
  });
});
