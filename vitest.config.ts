import { defineConfig } from "vitest/config";

/**
 * The tests as five projects, so that the everyday loop starts nothing it does not need:
 *
 * - `unit` (`npx vitest run --project unit`): everything that runs inside vitest's Node process
 *   on its own. Its files share one module graph per worker (`isolate: false`): loading docsbase
 *   anew for each file made the project take 242 s instead of 66 s (108 files, two cores). So a
 *   test file must leave no global state behind (stubbed globals are undone after each test here;
 *   restore spies and timers in an `afterEach`).
 * - `mocking`: the few files that replace a module with `vi.mock`, each isolated (see MOCKING).
 * - `cli`: the `docsbase` command in processes of its own (serve, restarts, kills, flags).
 * - `postgres`: what needs the run's PostgreSQL server, which only this project's global setup
 *   starts (test/support/postgres-setup.ts): the PostgreSQL adapter's tests, the CLI on
 *   PostgreSQL, and the conformance suite, which runs every file on every adapter.
 * - `runtimes`: docsbase outside Node: headless Chromium, Deno and Bun; and the built package
 *   (`dist/`, which `npm test` builds first), as examples/consumer installs it.
 *
 * `npm test` runs them all. Their files share one pool of workers, queued by project name, and
 * within a project the longest files first. No test measures time: latency under load is a
 * benchmark (`npm run bench -- noisy-neighbour`), not a test.
 */
const CLI = [
  "test/cli.test.ts",
  "test/cli-admin-token.test.ts",
  "test/cli-commands.test.ts",
  "test/cli-test-double.test.ts",
  "test/gitbook-cli.test.ts",
  "test/crash.test.ts",
  "test/noisy-neighbour.test.ts",
  "test/outbound.test.ts",
  "test/quickstart.test.ts",
  "test/offline-sync.test.ts",
];
const POSTGRES = ["test/postgres/**/*.test.ts", "test/cli-postgres.test.ts", "test/conformance/**/*.test.ts"];
/**
 * Files that replace a module with `vi.mock`: in `unit`, whose files share one module graph, the
 * module may already be loaded by another file, so they run isolated, in `mocking`.
 */
const MOCKING = ["src/**/*.mock.test.ts"];
const RUNTIMES = [
  "test/browser.test.ts",
  "test/browser-examples.test.ts",
  "test/browser-sync-*.test.ts",
  "test/runtimes.test.ts",
  "test/package.test.ts",
  "test/testing-playwright.test.ts",
  "test/consumer-example.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...CLI, ...POSTGRES, ...RUNTIMES, ...MOCKING],
          isolate: false,
          unstubGlobals: true,
        },
      },
      { extends: true, test: { name: "mocking", include: MOCKING } },
      { extends: true, test: { name: "cli", include: CLI } },
      {
        extends: true,
        test: {
          name: "postgres",
          include: POSTGRES,
          // One PostgreSQL server for the project's run (test/support/postgres-setup.ts).
          globalSetup: ["test/support/postgres-setup.ts"],
        },
      },
      { extends: true, test: { name: "runtimes", include: RUNTIMES } },
    ],
  },
});
