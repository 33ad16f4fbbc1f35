import type { World } from "../shared/world.js";
import { runDueJobs, type JobRunnerOptions } from "./runner.js";
import type { JobHandlers } from "./schedule.js";

/**
 * The second argument of `docsbase.fetch`: the shape of Hono's `executionCtx` and of the `ctx` of a
 * Cloudflare Worker, whose `waitUntil` keeps the request's isolate alive until a promise settles.
 */
export interface BackgroundContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** The runner options a host sets once; the drain's abort signal belongs to the instance. */
export type JobOptions = Omit<JobRunnerOptions, "signal">;

/**
 * How many drains a docsbase instance runs at once in the background, so that a long job does not
 * hold back the jobs queued after it, while a burst of requests does not start a drain each.
 */
const BACKGROUND_DRAINS = 4;

/**
 * The jobs of one docsbase instance: its drains, their hand-off to the platform after a request
 * that queued a job due now, and their end when the instance closes.
 */
export function backgroundJobs(world: World, handlers: JobHandlers, options: JobOptions = {}) {
  const stopping = new AbortController();
  const running = new Set<Promise<unknown>>();
  let queuedDue = 0;
  let background = 0;
  let again = false;

  const track = <T>(promise: Promise<T>): Promise<T> => {
    running.add(promise);
    void promise.then(
      () => running.delete(promise),
      () => running.delete(promise),
    );
    return promise;
  };
  const drain = () => runDueJobs(world, handlers, { ...options, signal: stopping.signal });

  /** A background drain, or, when enough run already, a request that one of them drains again. */
  const kick = (): Promise<unknown> => {
    if (background >= BACKGROUND_DRAINS) {
      again = true;
      return Promise.all(running);
    }
    background++;
    return track(
      (async () => {
        try {
          do {
            again = false;
            await drain();
          } while (again && !stopping.signal.aborted);
        } finally {
          background--;
        }
      })(),
    );
  };

  return {
    /** For `World.jobQueued`: counts the jobs queued due now. */
    jobQueued(runAt: Date) {
      if (runAt.getTime() <= world.clock().getTime()) queuedDue++;
    },
    /** Runs the jobs due now and resolves with how many ran (`docsbase.runJobs()`). */
    run: () => track(drain()),
    /**
     * Wraps a request handler (a fetch handler, or the runtime-neutral one): after a request that queued a job due now, hands a drain to the
     * platform's `waitUntil`. A second argument without `waitUntil` (a Worker's `env`, Node's
     * server bindings) is ignored: the host then drains on its own schedule.
     */
    fetch<In, Out>(
      handler: (request: In) => Promise<Out>,
      onError: (error: unknown, request: In) => void,
    ): (request: In, context?: BackgroundContext) => Promise<Out> {
      return async (request, context) => {
        const before = queuedDue;
        const response = await handler(request);
        if (queuedDue !== before && typeof context?.waitUntil === "function" && !stopping.signal.aborted) {
          context.waitUntil(kick().catch((error: unknown) => onError(error, request)));
        }
        return response;
      };
    },
    /** Starts no further job and resolves once the drains under way have ended. */
    async stop() {
      stopping.abort();
      await Promise.allSettled(running);
    },
  };
}
