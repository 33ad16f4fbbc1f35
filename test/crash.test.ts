import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAfterRestart, newSeen } from "./support/crash-check.js";
import { Model, runWriter, seededRandom } from "./support/crash-workload.js";
import { ApiClient, buildCli, ServeProcesses, type ServeProcess } from "./support/serve-process.js";

/**
 * Issue 9, "Keep it so": `docsbase serve` on SQLite is killed with SIGKILL while 8 clients write
 * over HTTP (change requests and their status, comments, replies, resolutions and deletions, pages
 * in the spaces and in change requests, in two spaces), then restarted on the same file. Every
 * acknowledged write must be there, and every counter must equal a recount (see
 * support/crash-check.ts). Three kill/restart cycles.
 *
 * Bounded in work units: each cycle kills once a seeded number of writes were acknowledged (40 to
 * 79 more than before), each writer attempts at most `MAX_WRITES` writes. The seed is fixed;
 * `DOCSBASE_CRASH_SEED` replays another.
 */

const SEED = Number(process.env["DOCSBASE_CRASH_SEED"] ?? 9917);
const WRITERS = 8;
const CYCLES = 3;
const MAX_WRITES = 80;
const TOKEN = "dbt_crash_test_operator_token";

describe("docsbase serve on SQLite, killed under concurrent writes", () => {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-crash-"));
  let cli: Awaited<ReturnType<typeof buildCli>> | undefined;
  let processes = new ServeProcesses();
  // The server starts 4 times: built once from the current source, each start is quick (see buildCli).
  beforeAll(async () => {
    cli = await buildCli();
    processes = new ServeProcesses([cli.script]);
  });
  afterAll(async () => {
    await processes.killAll();
    cli?.remove();
    rmSync(directory, { recursive: true, force: true });
  });

  it("keeps every acknowledged write, and counters equal recounts, across 3 SIGKILLs", async () => {
    const db = join(directory, "crash.sqlite");
    const start = () => processes.start(["--db", db], { DOCSBASE_ADMIN_TOKEN: TOKEN });
    let server: ServeProcess = await start();
    let api = new ApiClient(server.url, TOKEN);

    const org = await api.send("POST", "/orgs", { title: "Crash test" });
    expect(org.status).toBe(201);
    const spaces: string[] = [];
    for (const title of ["First", "Second"]) {
      const space = await api.send("POST", `/orgs/${org.body.id}/spaces`, { title });
      expect(space.status).toBe(201);
      spaces.push(space.body.id);
    }

    const model = new Model(spaces);
    const seen = newSeen();
    const random = seededRandom(SEED);
    let lost = 0;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const killAt = model.acknowledged + 40 + Math.floor(random() * 40);
      let killed = false;
      const running = server;
      const kill = () => {
        if (killed) return;
        killed = true;
        running.child.kill("SIGKILL");
      };
      await Promise.all(
        Array.from({ length: WRITERS }, (_, writer) =>
          runWriter({
            api,
            model,
            writer,
            random: seededRandom(SEED * 31 + cycle * WRITERS + writer),
            cycle,
            maxWrites: MAX_WRITES,
            stopped: () => killed,
            onAcknowledged: () => {
              if (model.acknowledged >= killAt) kill();
            },
          }).catch((error: unknown) => {
            model.unexpected.push(`writer ${writer} failed: ${String(error)}`);
          }),
        ),
      );
      expect(killed, `cycle ${cycle}: the writers stopped before ${killAt} acknowledged writes`).toBe(true);
      expect(await server.exited).toBe("SIGKILL");
      expect(model.unexpected, `seed ${SEED}, cycle ${cycle}`).toEqual([]);
      lost += Object.values(model.uncertain).reduce((sum, count) => sum + count, 0);
      lost += [...model.changeRequests, ...model.comments].filter((item) => item.status.pending).length;
      lost += model.pages.filter((page) => page.markdown.pending !== undefined).length;

      server = await start();
      api = new ApiClient(server.url, TOKEN);
      const problems = await checkAfterRestart(api, model, seen);
      expect(problems, `seed ${SEED}, cycle ${cycle}: after restart`).toEqual([]);
    }
    // The kills landed under load: some writes were in flight, their answers lost.
    expect(lost).toBeGreaterThan(0);
    expect(model.changeRequests.length).toBeGreaterThan(0);
    expect(model.comments.length).toBeGreaterThan(0);
    expect(model.pages.length).toBeGreaterThan(0);
    await processes.killAll();
  }, 60_000);
});
