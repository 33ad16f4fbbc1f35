import { existsSync } from "node:fs";
import { describe, it } from "vitest";
import { GITBOOK_CLI_COMMAND, GITBOOK_CLI_VERSIONS, gitbookCliScript } from "../../scripts/gitbook-cli.js";
import { runtimesRequired } from "./runtimes.js";

/**
 * `describe(title, ...)` with the script of GitBook's CLI handed to the suite. The CLI is not a
 * devDependency: `npm run gitbook-cli` installs the pinned version into
 * node_modules/.cache/gitbook-cli (scripts/gitbook-cli.ts). Without it the suite is skipped under
 * a title naming that command, or, under CI (where .ci/run installs it), replaced by one failing
 * test, as the suites of test/support/runtimes.ts do.
 */
export function describeWithGitbookCli(
  title: string,
  suite: (script: string) => void,
  script = gitbookCliScript(),
): void {
  if (existsSync(script)) {
    describe(title, () => suite(script));
    return;
  }
  const missing = `GitBook's CLI not found in node_modules/.cache/gitbook-cli: \`${GITBOOK_CLI_COMMAND}\` installs @gitbook/cli ${GITBOOK_CLI_VERSIONS["@gitbook/cli"]}`;
  if (runtimesRequired()) {
    describe(title, () =>
      it("needs @gitbook/cli", () => {
        throw new Error(`${missing}; under CI an absent CLI fails the run`);
      }),
    );
    return;
  }
  console.warn(`skipped "${title}": ${missing}`);
  describe.skip(`${title} (skipped: ${missing})`, () => it("needs @gitbook/cli", () => undefined));
}
