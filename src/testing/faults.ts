import type { ObservedAnswer, ObservedCall } from "../core/shared/observe.js";
import type { ErrorCode } from "../core/shared/errors.js";
import { STATUS_OF } from "../http/status.js";
import { DEFAULT_RATE_LIMIT } from "../http/rate-limit.js";
import { pathOf } from "./journal.js";

/** Which calls a fault hits: one operation, or a method and a path (as the API writes it, or as called). */
export type FaultTarget =
  | { readonly operationId: string; readonly method?: never; readonly path?: never }
  | { readonly method: string; readonly path: string; readonly operationId?: never };

/** What `test.fault` takes: the calls it hits, and how they fail. */
export type FaultOptions = FaultTarget & {
  /** The answer's status, default 500 (unless only `delayMs` or `networkError` is given). */
  readonly status?: number;
  /** The answer's body, default the API's error body `{ error: { code, message } }`. */
  readonly body?: unknown;
  /** Headers added to the answer (they override those a 429 gets). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Wait this long first: then the real answer, or the fault's when it has a status or network error. */
  readonly delayMs?: number;
  /** Fail as a network failure: `fetch` rejects with a `TypeError`, and so does a typed call. */
  readonly networkError?: boolean;
  /** Hit at most this many calls. Default: every matching call until `remove()`. */
  readonly times?: number;
  /** Hit each matching call with this probability (0 to 1), drawn from a PRNG seeded by `seed`. */
  readonly probability?: number;
  /** The seed of `probability`'s draws: the same seed hits the same calls. Default: random. */
  readonly seed?: number;
};

/** A fault in place: `hits` counts the calls it failed or delayed; `remove()` ends it. */
export interface Fault {
  readonly hits: number;
  remove(): void;
}

/**
 * How a typed in-process call rejects when a fault answers it with a status: what HTTP would have
 * answered (`status`, `body`, `headers`), and the `code` a `DocsbaseError` of that status has.
 */
export class FaultError extends Error {
  override readonly name = "FaultError";
  readonly code: ErrorCode | undefined;
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
    super(typeof message === "string" ? message : `Fault: status ${status}`);
    this.code = (Object.keys(STATUS_OF) as ErrorCode[]).find((code) => STATUS_OF[code] === status);
  }
}

/** What a fault does to one call: wait, then the real answer, an answer of its own, or a network failure. */
export interface FaultEffect {
  readonly delayMs: number;
  readonly answer?: ObservedAnswer;
  readonly networkError: boolean;
}

/** The faults of one double: `add` puts one in place, `effectOn` finds what the first matching one does. */
export function createFaults(now: () => Date) {
  const faults: { options: FaultOptions; matches(call: ObservedCall): boolean; hits: number }[] = [];
  return {
    add(options: FaultOptions): Fault {
      const random = mulberry32(options.seed ?? Math.floor(Math.random() * 2 ** 32));
      const entry = {
        options,
        hits: 0,
        matches(call: ObservedCall) {
          if (options.times !== undefined && entry.hits >= options.times) return false;
          if (options.operationId !== undefined) {
            if (call.operationId !== options.operationId) return false;
          } else if (
            call.method !== options.method.toLowerCase() ||
            (call.path !== options.path && pathOf(call) !== options.path)
          ) {
            return false;
          }
          return options.probability === undefined || random() < options.probability;
        },
      };
      faults.push(entry);
      return {
        get hits() {
          return entry.hits;
        },
        remove() {
          const index = faults.indexOf(entry);
          if (index >= 0) faults.splice(index, 1);
        },
      };
    },
    /** Removes every fault (the double's `reset`). */
    clear: () => void faults.splice(0),
    /** The effect of the first fault that hits this call, if any (it counts the hit). */
    effectOn(call: ObservedCall): FaultEffect | undefined {
      const fault = faults.find((candidate) => candidate.matches(call));
      if (!fault) return undefined;
      fault.hits++;
      const { options } = fault;
      const networkError = options.networkError ?? false;
      const status = options.status ?? (options.delayMs !== undefined || networkError ? undefined : 500);
      return {
        delayMs: options.delayMs ?? 0,
        networkError,
        ...(status !== undefined && !networkError ? { answer: answerOf(call, status, options, now) } : {}),
      };
    },
  };
}

function answerOf(
  call: ObservedCall,
  status: number,
  options: FaultOptions,
  now: () => Date,
): ObservedAnswer {
  const message = `Fault injected by the test double on ${call.operationId}`;
  const headers: Record<string, string> = {};
  if (status === 429) {
    // What the rate limiter answers past its request limit (docs/api.md, "Rate limits").
    const retryAfter = 1;
    headers["retry-after"] = String(retryAfter);
    headers["x-ratelimit-limit"] = String(DEFAULT_RATE_LIMIT.requests.limit);
    headers["x-ratelimit-remaining"] = "0";
    headers["x-ratelimit-reset"] = String(Math.ceil(now().getTime() / 1000) + retryAfter);
  }
  for (const name in options.headers) headers[name.toLowerCase()] = options.headers[name] as string;
  return { status, body: options.body ?? { error: { code: status, message } }, headers };
}

/** A small seeded PRNG (mulberry32): uniform numbers in [0, 1), the same for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
