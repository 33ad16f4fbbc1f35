import type { ObservedCall } from "../core/shared/observe.js";

/**
 * One call through the test double, as `test.calls()` lists it. `path` is the path under `/v1`
 * as called (`/spaces/space-handbook`); `params`, `query` and `body` are the validated input
 * (as received when validation refused it); `response` is the answer's body (the error body for a
 * refusal, undefined for an empty or non-JSON one, and for a network failure, whose `status` is 0).
 * A call refused before an operation is reached (a path no route serves, a missing or unknown
 * token over HTTP, a malformed body) has no `operationId`, and `params` `{}`.
 */
export interface CallEntry {
  readonly operationId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
  readonly status: number;
  readonly response: unknown;
  readonly user: string | undefined;
  readonly at: Date;
}

/** What `test.calls(filter)` keeps: entries equal on every given key (method in any case). */
export interface CallFilter {
  readonly operationId?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly user?: string;
}

/** `test.calls`: the entries in the order the calls ended; `clear()` empties it. */
export interface CallJournal {
  (filter?: CallFilter): CallEntry[];
  clear(): void;
}

/** The entries of one double, and the journal function that reads them. */
export function createJournal(): { journal: CallJournal; record(entry: CallEntry): void } {
  const entries: CallEntry[] = [];
  const journal = (filter: CallFilter = {}) =>
    entries.filter(
      (entry) =>
        (filter.operationId === undefined || entry.operationId === filter.operationId) &&
        (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || entry.path === filter.path) &&
        (filter.status === undefined || entry.status === filter.status) &&
        (filter.user === undefined || entry.user === filter.user),
    );
  return {
    journal: Object.assign(journal, { clear: () => void entries.splice(0) }),
    record: (entry) => void entries.push(entry),
  };
}

/** The path of a call under `/v1`, its parameters put into the operation's path. */
export function pathOf(call: ObservedCall): string {
  const params = (call.input?.params ?? call.raw.params) as Record<string, unknown>;
  return call.path.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
}
