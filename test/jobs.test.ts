import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { pollJobs } from "../src/cli/serve.js";
import type { JobHandler } from "../src/core/jobs/index.js";
import { gate, jobsDocsbase, movableClock } from "./support/jobs.js";

/** Lets every pending promise callback run: the memory adapter settles within one turn. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("hosting background jobs", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the standalone server's poll starts a job queued elsewhere within one second", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const ran: string[] = [];
    const { docsbase, queue } = await jobsDocsbase({
      note: async (_world, payload) => void ran.push(String(payload["n"])),
    });
    const poller = pollJobs(docsbase, { intervalMs: 1000 });
    await settle();
    // The in-process client hands nothing to `waitUntil`: only the poll can start this job.
    await queue("note", 0, { n: 1 });
    await vi.advanceTimersByTimeAsync(999);
    await settle();
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(ran).toEqual(["1"]);
    expect(await docsbase.jobs()).toEqual([]);
    poller.stop();
    await docsbase.close();
  });

  it("polls one drain at a time, so a long job does not pile up drains", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let drains = 0;
    const held = gate<number>();
    const poller = pollJobs(
      {
        runJobs: () => {
          drains++;
          return held.promise;
        },
      },
      { intervalMs: 1000 },
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(drains).toBe(1);
    held.open(0);
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(drains).toBe(2);
    poller.stop();
  });

  it("fetch(request, { waitUntil }) hands over a drain of the job the request queued due now", async () => {
    const { clock } = movableClock();
    const ran: string[] = [];
    const { docsbase, queueRequest } = await jobsDocsbase(
      { note: async (_world, payload) => void ran.push(String(payload["n"])) },
      { clock },
    );
    const handedOver: Promise<unknown>[] = [];
    const context = { waitUntil: (promise: Promise<unknown>) => void handedOver.push(promise) };

    expect((await docsbase.fetch(queueRequest("note", 0, { n: 1 }), context)).status).toBe(201);
    expect(handedOver).toHaveLength(1);
    await Promise.all(handedOver);
    expect(ran).toEqual(["1"]);
    expect(await docsbase.jobs()).toEqual([]);

    // A job due later, or a request queuing nothing, hands nothing over.
    expect((await docsbase.fetch(queueRequest("note", 60_000, { n: 2 }), context)).status).toBe(201);
    await docsbase.fetch(new Request("http://localhost/v1/no-such-route"), context);
    expect(handedOver).toHaveLength(1);

    // One argument still works; so does a second one without `waitUntil` (a Worker's `env`).
    expect((await docsbase.fetch(queueRequest("note", 0, { n: 3 }))).status).toBe(201);
    const env = {} as { waitUntil(promise: Promise<unknown>): void };
    expect((await docsbase.fetch(queueRequest("note", 0, { n: 4 }), env)).status).toBe(201);
    expect(ran).toEqual(["1"]);
    expect(await docsbase.runJobs()).toBe(2);
    expect([...ran].sort()).toEqual(["1", "3", "4"]);
    await docsbase.close();
  });

  it("close() waits for the job under way before closing the storage", async () => {
    const held = gate();
    const started = gate();
    let finished = false;
    const handlers = {
      slow: (async () => {
        started.open();
        await held.promise;
        finished = true;
      }) satisfies JobHandler,
    };
    const onError = vi.fn();
    const { docsbase, queueRequest } = await jobsDocsbase(handlers, { onError });
    const handedOver: Promise<unknown>[] = [];
    await docsbase.fetch(queueRequest("slow"), { waitUntil: (promise) => void handedOver.push(promise) });
    await started.promise;
    let closed = false;
    const closing = docsbase.close().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false);
    held.open();
    await closing;
    await Promise.all(handedOver);
    expect(finished).toBe(true);
    expect(onError).not.toHaveBeenCalled();
  });

  it("two instances on one SQLite file, each with its own connection, run each job once", async () => {
    const directory = mkdtempSync(join(tmpdir(), "docsbase-jobs-"));
    try {
      const filename = join(directory, "jobs.db");
      const seen: string[] = [];
      const handlers = {
        record: (async (_world, payload) => {
          await Promise.resolve();
          seen.push(String(payload["n"]));
        }) satisfies JobHandler,
      };
      const a = await jobsDocsbase(handlers, { storage: sqliteStorage({ filename }) });
      const b = await jobsDocsbase(handlers, { storage: sqliteStorage({ filename }) });
      for (let n = 0; n < 20; n++) await a.queue("record", 0, { n });
      const [ranA, ranB] = await Promise.all([a.docsbase.runJobs(), b.docsbase.runJobs()]);
      expect(ranA + ranB).toBe(20);
      expect([...seen].sort()).toEqual(Array.from({ length: 20 }, (_, n) => String(n)).sort());
      expect(await b.docsbase.jobs()).toEqual([]);
      await a.docsbase.close();
      await b.docsbase.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
