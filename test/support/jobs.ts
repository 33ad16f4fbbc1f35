import { z } from "zod";
import { memoryStorage } from "../../src/adapters/memory/index.js";
import { createDocsbase, type DocsbaseOptions } from "../../src/docsbase.js";
import { scheduleJob, type JobHandlers } from "../../src/core/jobs/index.js";
import { defineModule } from "../../src/core/module.js";
import { anyCaller } from "../../src/core/permissions/index.js";
import { defineOperation } from "../../src/core/registry.js";
import type { Storage } from "../../src/core/storage/port.js";
import { defineTable } from "../../src/core/storage/table.js";

/** A record that job handlers of the tests write, to show what they did and when. */
export const marksTable = defineTable({
  name: "testMarks",
  key: "id",
  indexes: {},
  record: z.object({ id: z.string(), step: z.string(), seen: z.string().optional() }),
});

/**
 * A throwaway module for job tests: the given handlers, the marks table, and an operation that
 * queues a job of any type `inMs` from now (for `organization`, if given), in its write
 * transaction as real operations do.
 */
export function testJobsModule(handlers: JobHandlers) {
  const queueTestJob = defineOperation({
    id: "queueTestJob",
    method: "post",
    path: "/test/jobs",
    tag: "test",
    summary: "Queue a job (tests only)",
    access: anyCaller,
    body: z.object({
      type: z.string(),
      inMs: z.number().int().default(0),
      payload: z.record(z.string(), z.unknown()).default({}),
      organization: z.string().optional(),
    }),
    response: z.object({ runAt: z.string() }),
    status: 201,
    async run({ tx, ...world }, { body }) {
      const runAt = new Date(world.clock().getTime() + body.inMs);
      await scheduleJob(tx, world, body.organization, body.type, runAt, body.payload);
      return { runAt: runAt.toISOString() };
    },
  });
  return defineModule({
    name: "testJobs",
    tables: [marksTable],
    operations: { queueTestJob },
    jobs: handlers,
  });
}

/** A clock that moves only when told. */
export function movableClock(start = "2025-01-01T00:00:00.000Z") {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

const OPERATOR_TOKEN = "dbt_operator_jobs_test_token";

/**
 * A docsbase with the test module, bootstrapped, and a `queue` helper. Several of them may share a
 * storage and a clock: they then are several runners of one job queue.
 */
export async function jobsDocsbase(
  handlers: JobHandlers,
  options: { storage?: Storage; clock?: () => Date } & Omit<
    Partial<DocsbaseOptions>,
    "storage" | "clock"
  > = {},
) {
  const storage = options.storage ?? memoryStorage();
  const docsbase = createDocsbase({ ...options, storage, modules: [testJobsModule(handlers)] });
  await docsbase.bootstrap({ token: OPERATOR_TOKEN });
  const client = docsbase.as({ token: OPERATOR_TOKEN });
  const queue = (type: string, inMs = 0, payload: Record<string, unknown> = {}, organization?: string) =>
    client.queueTestJob({ body: { type, inMs, payload, ...(organization ? { organization } : {}) } });
  /** The request `queue` makes, for going through `docsbase.fetch`. */
  const queueRequest = (type: string, inMs = 0, payload: Record<string, unknown> = {}) =>
    new Request("http://localhost/v1/test/jobs", {
      method: "POST",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ type, inMs, payload }),
    });
  return { docsbase, storage, queue, queueRequest };
}

/** A promise with its resolve at hand: lets a test hold a job handler mid-way. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves with the values of the first `count` promises to settle, in the order they did. */
export function firstResolved<T>(promises: readonly Promise<T>[], count: number): Promise<T[]> {
  const values: T[] = [];
  return new Promise((resolve) => {
    for (const promise of promises) {
      void promise.then((value) => {
        values.push(value);
        if (values.length === count) resolve([...values]);
      });
    }
  });
}
