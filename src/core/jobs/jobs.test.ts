import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { gate, jobsDocsbase, marksTable, movableClock } from "../../../test/support/jobs.js";
import { DEFAULT_MAX_ATTEMPTS, PermanentJobError, retryDelayMs, type JobHandler } from "./index.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe("job runner", () => {
  it("runs a job once when two instances drain one storage, and not before it is due", async () => {
    const storage = memoryStorage();
    const { clock, advance } = movableClock();
    const held = gate();
    const started = gate();
    let runs = 0;
    const handlers = {
      slow: (async () => {
        runs++;
        started.open();
        await held.promise;
      }) satisfies JobHandler,
    };
    const a = await jobsDocsbase(handlers, { storage, clock });
    const b = await jobsDocsbase(handlers, { storage, clock });
    await a.queue("slow", MINUTE);
    expect(await a.docsbase.runJobs()).toBe(0);
    advance(MINUTE);

    const first = a.docsbase.runJobs();
    await started.promise;
    // a holds the lease while its handler runs, outside any transaction: b finds nothing to do.
    expect(await b.docsbase.runJobs()).toBe(0);
    expect(await b.docsbase.jobs()).toMatchObject([{ type: "slow", state: "running", attempts: 1 }]);
    held.open();
    expect(await first).toBe(1);
    expect(runs).toBe(1);
    expect(await b.docsbase.jobs()).toEqual([]);
  });

  it("splits a queue between concurrent runners without running any job twice", async () => {
    const storage = memoryStorage();
    const { clock } = movableClock();
    const seen: string[] = [];
    const handlers = {
      record: (async (_world, payload) => {
        await Promise.resolve();
        seen.push(String(payload["n"]));
      }) satisfies JobHandler,
    };
    const a = await jobsDocsbase(handlers, { storage, clock });
    const b = await jobsDocsbase(handlers, { storage, clock });
    for (let n = 0; n < 20; n++) await a.queue("record", 0, { n });
    const [ranA, ranB] = await Promise.all([a.docsbase.runJobs(), b.docsbase.runJobs()]);
    expect(ranA + ranB).toBe(20);
    expect(ranA).toBeGreaterThan(0);
    expect(ranB).toBeGreaterThan(0);
    expect([...seen].sort()).toEqual(Array.from({ length: 20 }, (_, n) => String(n)).sort());
  });

  it("reclaims a job whose lease ran out, and drops the late outcome of its first runner", async () => {
    const storage = memoryStorage();
    const { clock, advance } = movableClock();
    const hung = gate();
    const started = gate();
    const attempts: number[] = [];
    const onFailure = vi.fn();
    const handlers = {
      flaky: (async (_world, _payload, job) => {
        attempts.push(job.attempt);
        if (job.attempt > 1) return;
        started.open();
        await hung.promise;
        throw new Error("too late");
      }) satisfies JobHandler,
    };
    const jobs = { leaseMs: MINUTE, onFailure };
    const a = await jobsDocsbase(handlers, { storage, clock, jobs });
    const b = await jobsDocsbase(handlers, { storage, clock, jobs });
    await a.queue("flaky");
    const stuck = a.docsbase.runJobs();
    await started.promise;

    advance(MINUTE - 1);
    expect(await b.docsbase.runJobs()).toBe(0);
    advance(1);
    expect(await b.docsbase.runJobs()).toBe(1);
    expect(attempts).toEqual([1, 2]);
    expect(await b.docsbase.jobs()).toEqual([]);

    // The first runner wakes up and fails: the job is no longer its to record.
    hung.open();
    expect(await stuck).toBe(1);
    expect(await a.docsbase.jobs()).toEqual([]);
    expect(onFailure).not.toHaveBeenCalled();
  });

  it("retries a failed job after an exponential backoff", async () => {
    const { clock, advance } = movableClock();
    const handlers = {
      third: (async (_world, _payload, job) => {
        if (job.attempt < 3) throw new Error(`attempt ${job.attempt} failed`);
      }) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, { clock });
    await queue("third", 0, { some: "payload" });

    expect(await docsbase.runJobs()).toBe(1);
    expect(await docsbase.jobs()).toEqual([
      {
        id: expect.any(String),
        type: "third",
        state: "queued",
        payload: { some: "payload" },
        runAt: "2025-01-01T00:00:30.000Z",
        attempts: 1,
        error: "Error: attempt 1 failed",
      },
    ]);
    advance(30 * SECOND - 1);
    expect(await docsbase.runJobs()).toBe(0);
    advance(1);
    expect(await docsbase.runJobs()).toBe(1);
    expect(await docsbase.jobs()).toMatchObject([
      { state: "queued", attempts: 2, runAt: "2025-01-01T00:01:30.000Z", error: "Error: attempt 2 failed" },
    ]);
    advance(MINUTE - 1);
    expect(await docsbase.runJobs()).toBe(0);
    advance(1);
    expect(await docsbase.runJobs()).toBe(1);
    expect(await docsbase.jobs()).toEqual([]);
  });

  it("doubles the delay from 30 seconds up to an hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMs)).toEqual([
      30 * SECOND,
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      16 * MINUTE,
      32 * MINUTE,
      60 * MINUTE,
      60 * MINUTE,
    ]);
  });

  it("keeps a job as dead, with its last error, after the last attempt", async () => {
    const { clock, advance } = movableClock();
    const onFailure = vi.fn();
    const handlers = {
      broken: (async (_world, _payload, job) => {
        throw new Error(`boom ${job.attempt}`);
      }) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, { clock, jobs: { onFailure } });
    await queue("broken", 0, { n: 1 });
    for (let attempt = 1; attempt <= DEFAULT_MAX_ATTEMPTS; attempt++) {
      expect(await docsbase.runJobs()).toBe(1);
      advance(retryDelayMs(attempt));
    }
    expect(DEFAULT_MAX_ATTEMPTS).toBe(8);
    const dead = {
      id: expect.any(String),
      type: "broken",
      state: "dead",
      payload: { n: 1 },
      attempts: 8,
      error: "Error: boom 8",
      diedAt: expect.stringMatching(/^2025-01-01T/),
    };
    expect(await docsbase.jobs()).toEqual([dead]);
    expect(await docsbase.jobs({ state: "dead" })).toEqual([dead]);
    expect(await docsbase.jobs({ state: "queued" })).toEqual([]);

    advance(30 * 24 * 60 * MINUTE);
    expect(await docsbase.runJobs()).toBe(0);
    expect(await docsbase.jobs()).toEqual([dead]);
    expect(onFailure).toHaveBeenCalledTimes(8);
    expect(onFailure.mock.calls[0]?.[0]).toMatchObject({ state: "queued", attempts: 1 });
    expect(onFailure.mock.calls[7]?.[0]).toMatchObject({ state: "dead", attempts: 8 });
    expect(onFailure.mock.calls[7]?.[1]).toBeInstanceOf(Error);
  });

  it("honours a configured attempt limit", async () => {
    const { clock } = movableClock();
    const handlers = { broken: (async () => Promise.reject(new Error("no"))) satisfies JobHandler };
    const { docsbase, queue } = await jobsDocsbase(handlers, { clock, jobs: { maxAttempts: 1 } });
    await queue("broken");
    expect(await docsbase.runJobs()).toBe(1);
    expect(await docsbase.jobs()).toMatchObject([{ state: "dead", attempts: 1, error: "Error: no" }]);
  });

  it("keeps a job that throws a PermanentJobError as dead at once, with no retry", async () => {
    const { clock } = movableClock();
    const handlers = {
      hopeless: (async () => Promise.reject(new PermanentJobError("bad input"))) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, { clock });
    await queue("hopeless");
    expect(await docsbase.runJobs()).toBe(1);
    expect(await docsbase.jobs()).toMatchObject([
      { state: "dead", attempts: 1, error: "PermanentJobError: bad input" },
    ]);
    expect(await docsbase.jobs({ state: "queued" })).toEqual([]);
  });

  it("does not let a failing job hold back the jobs queued after it", async () => {
    const { clock, advance } = movableClock();
    const ran: string[] = [];
    const handlers = {
      failing: (async () => {
        ran.push("failing");
        throw new Error("always");
      }) satisfies JobHandler,
      fine: (async () => {
        ran.push("fine");
      }) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, { clock });
    await queue("failing");
    advance(1);
    await queue("fine");
    expect(await docsbase.runJobs()).toBe(2);
    expect(ran).toEqual(["failing", "fine"]);
    expect(await docsbase.jobs()).toMatchObject([{ type: "failing", state: "queued", attempts: 1 }]);
  });

  it("tells an attempt to stop at its deadline, then stops waiting for a handler that does not", async () => {
    const { clock } = movableClock();
    const signals: AbortSignal[] = [];
    const handlers = {
      // Heeds its signal: ends when told, as a handler should.
      heeding: (async (_world, _payload, job) => {
        signals.push(job.signal);
        await new Promise((resolve) => job.signal.addEventListener("abort", resolve, { once: true }));
      }) satisfies JobHandler,
      // Never settles: only the runner's own deadline frees the drain.
      deaf: (() => new Promise<void>(() => {})) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, { clock, jobs: { jobTimeoutMs: 20 } });
    await queue("heeding");
    await queue("deaf");
    expect(await docsbase.runJobs()).toBe(2);
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(await docsbase.jobs()).toMatchObject([
      {
        type: "deaf",
        state: "queued",
        attempts: 1,
        error: "JobTimeoutError: The job did not finish within 20 ms",
      },
    ]);
  });

  it("fails a job of an unknown type like a throwing one: retried, in case another version knows it, then dead", async () => {
    const storage = memoryStorage();
    const { clock, advance } = movableClock();
    const older = await jobsDocsbase({}, { storage, clock });
    await older.queue("fromTheFuture");
    expect(await older.docsbase.runJobs()).toBe(1);
    expect(await older.docsbase.jobs()).toMatchObject([
      { state: "queued", attempts: 1, error: 'Error: No handler for job type "fromTheFuture"' },
    ]);
    // A newer instance on the same storage knows the type and runs it once it is due again.
    let ran = false;
    const newer = await jobsDocsbase({ fromTheFuture: async () => void (ran = true) }, { storage, clock });
    advance(retryDelayMs(1));
    expect(await newer.docsbase.runJobs()).toBe(1);
    expect(ran).toBe(true);

    // Nobody knows it: dead after the limit, with the reason.
    await older.queue("unknown");
    for (let attempt = 1; attempt <= DEFAULT_MAX_ATTEMPTS; attempt++) {
      await older.docsbase.runJobs();
      advance(retryDelayMs(attempt));
    }
    expect(await older.docsbase.jobs()).toMatchObject([
      { type: "unknown", state: "dead", attempts: 8, error: 'Error: No handler for job type "unknown"' },
    ]);
  });
});

describe("a job calling the network", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("writes, fetches, then writes again, holding no transaction during the call", async () => {
    const storage = memoryStorage();
    // The remote end reads the job's first write from the same storage: with a transaction still
    // open around the call, this read would wait for it, and the job for this answer, forever.
    server = createServer((request, response) => {
      const id = new URL(request.url ?? "/", "http://x").searchParams.get("mark") ?? "";
      void storage.read((tx) => tx.get(marksTable, id)).then((mark) => response.end(mark?.step ?? "none"));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;

    const handlers = {
      call: (async (world, _payload, job) => {
        await world.storage.write((tx) => tx.put(marksTable, { id: job.id, step: "before the call" }));
        const answer = await (await world.fetch(`http://127.0.0.1:${port}/?mark=${job.id}`)).text();
        await world.storage.write((tx) =>
          tx.put(marksTable, { id: job.id, step: "after the call", seen: answer }),
        );
      }) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, { storage, allowPrivateNetwork: true });
    await queue("call");
    const [job] = await docsbase.jobs();
    expect(await docsbase.runJobs()).toBe(1);
    expect(await docsbase.jobs()).toEqual([]);
    expect(await storage.read((tx) => tx.get(marksTable, job!.id))).toEqual({
      id: job!.id,
      step: "after the call",
      seen: "before the call",
    });
  });
});
