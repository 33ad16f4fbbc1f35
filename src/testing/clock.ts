import { badRequest, conflict } from "../core/shared/errors.js";
import type { JobInfo } from "../core/jobs/index.js";
import type { InvokeObserver } from "../core/shared/observe.js";

/** A moment as `clock.set` and the `now` option take it: a `Date`, an ISO string or epoch milliseconds. */
export type TestTime = Date | string | number;

/**
 * The double's clock, which its docsbase, journal, faults and rate limiter all read. See
 * docs/testing.md, "Time and jobs".
 *
 * @example
 * ```ts
 * const test = await createTestDocsbase({ now: "2024-01-01T00:00:00Z" });
 * await test.clock.advance("7d"); // runs, in time order, the jobs due on the way
 * test.clock.now(); // 2024-01-08T00:00:00.000Z
 * ```
 */
export interface TestClock {
  /** The double's current time. */
  now(): Date;
  /** Moves the clock to `time` (forward or back) without running any job. */
  set(time: TestTime): void;
  /**
   * Moves the clock forward by `duration` (milliseconds, or a string of units `ms`, `s`, `m`, `h`,
   * `d`, `w` such as `"1h30m"`), stopping at each job due on the way to run the jobs due then,
   * including those they queue; resolves with how many jobs ran.
   */
  advance(duration: string | number): Promise<number>;
}

/** The double's background jobs. */
export interface TestJobs {
  /** Runs the jobs due now, and those they queue due now; resolves with how many ran. */
  drain(): Promise<number>;
  /** The jobs waiting to run (queued, or running under a lease), earliest `runAt` first. */
  pending(): Promise<JobInfo[]>;
}

/** What the clock needs of the double's docsbase: running due jobs, and when the next falls due. */
export interface JobRunner {
  run(): Promise<number>;
  next(): Promise<Date | undefined>;
  list(): Promise<JobInfo[]>;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Milliseconds of a duration: a number >= 0, or units such as `"7d"`, `"1h30m"`, `"500ms"`. */
export function durationMs(duration: string | number, argument: string): number {
  const shown = typeof duration === "string" ? JSON.stringify(duration) : String(duration);
  const refuse = () =>
    badRequest(
      `${argument}: ${shown} is not a duration (milliseconds >= 0, or a string of units ms, s, m, h, d, w such as "1h30m")`,
    );
  if (typeof duration === "number") {
    if (!Number.isFinite(duration) || duration < 0) throw refuse();
    return duration;
  }
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/y;
  let total = 0;
  let at = 0;
  const text = duration.trim();
  while (at < text.length) {
    part.lastIndex = at;
    const match = part.exec(text);
    if (!match) throw refuse();
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    at = part.lastIndex;
  }
  if (text === "") throw refuse();
  return total;
}

/** Epoch milliseconds of a moment, refused with a message naming `argument` when it is no date. */
export function timeMs(time: TestTime, argument: string): number {
  const ms = time instanceof Date ? time.getTime() : typeof time === "number" ? time : Date.parse(time);
  if (!Number.isFinite(ms)) throw badRequest(`${argument}: ${JSON.stringify(time)} is not a date`);
  return ms;
}

/**
 * The double's time. With `now`, the clock starts there and stays frozen, moving only by `set` and
 * `advance`, so that every timestamp a test sees is the same run after run; without it, it follows
 * the system clock shifted by what `set` and `advance` added. With the caller's own `clock`, that
 * clock is read and `set` and `advance` refuse: the double cannot move it.
 *
 * Drains (`drain`, `advance`, and those run after calls) run one at a time, so that a call's drain
 * resolves only after the jobs it queued ran, even when another drain had claimed them first.
 */
export function createTestTime(options: { now?: TestTime; clock?: () => Date }, jobs: JobRunner) {
  const frozen = options.now === undefined ? undefined : { ms: timeMs(options.now, "now") };
  let offset = 0;
  const read: () => Date =
    options.clock ?? (frozen ? () => new Date(frozen.ms) : () => new Date(Date.now() + offset));
  const mine = (what: string) => {
    if (options.clock)
      throw conflict(`${what}: the clock is the caller's (the \`clock\` option), the double cannot move it`);
  };
  const moveTo = (ms: number) => {
    if (frozen) frozen.ms = ms;
    else offset = ms - Date.now();
  };

  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };

  const clock: TestClock = {
    now: read,
    set(time) {
      mine("clock.set");
      moveTo(timeMs(time, "clock.set"));
    },
    async advance(duration) {
      mine("clock.advance");
      const ms = durationMs(duration, "clock.advance");
      return exclusive(async () => {
        const start = { at: read().getTime(), offset };
        const target = start.at + ms;
        let ran = 0;
        for (;;) {
          const due = await jobs.next();
          if (!due || due.getTime() >= target) break;
          if (due.getTime() > read().getTime()) moveTo(due.getTime());
          ran += await jobs.run();
        }
        // Following the system clock, the shift grows by exactly `duration`, however long jobs took.
        if (frozen) frozen.ms = target;
        else offset = start.offset + ms;
        return ran + (await jobs.run());
      });
    },
  };
  const testJobs: TestJobs = {
    drain: () => exclusive(() => jobs.run()),
    pending: async () => (await jobs.list()).filter((job) => job.state !== "dead"),
  };
  /** Runs the jobs due now, if any, after a call (the `runJobs: "auto"` option). */
  const settle = () =>
    exclusive(async () => {
      const due = await jobs.next();
      return due && due.getTime() <= read().getTime() ? jobs.run() : 0;
    });
  const initial = { frozen: frozen?.ms, offset };
  /** Where the clock is, for a fork to start there (`now` when frozen, else the shift). */
  const position = (): { now: number } | { shift: number } =>
    frozen ? { now: frozen.ms } : { shift: offset };
  /** Back to the clock as it was created (`reset`). */
  const rewind = () => {
    if (frozen) frozen.ms = initial.frozen as number;
    offset = initial.offset;
  };
  return { read, clock, jobs: testJobs, settle, position, rewind };
}

/** `observe`, with the jobs a call queued due now run before the call resolves (`runJobs: "auto"`). */
export function settlingCalls(observe: InvokeObserver, settle: () => Promise<unknown>): InvokeObserver {
  return {
    admitted: (call) => observe.admitted(call),
    async ended(call, result) {
      await observe.ended(call, result);
      if ("answer" in result) await settle();
    },
  };
}
