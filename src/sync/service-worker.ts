import type { Docsbase } from "../docsbase.js";
import type { ReplicaStatus } from "./types.js";

/**
 * A replica in a service worker (issue 26, docs/offline.md "In a service worker"): the worker
 * answers the `/v1` requests of its pages with the LOCAL docsbase, so pages read and write the
 * replica offline with plain `fetch`, and it syncs the replica with the remote server when the
 * browser says so (Background Sync), when it comes back online, and when a page asks.
 */

/** The Background Sync tag the worker syncs on, and the `type` of the on-demand message. */
export const SYNC_TAG = "docsbase-sync";

/** The replica events a worker relays to its pages (the payloads of `replica.on`). */
export type ReplicaEventName = "pulled" | "pushed" | "conflict" | "offline" | "online";

/**
 * What the helper needs of a replica (`createReplica` of `docsbase/sync` returns one): typed by the
 * calls it makes, so any object with these members will do.
 */
export interface ServedReplica {
  /** A token of the replica's local user on the local docsbase. */
  readonly token: string;
  /** Whether the last contact with the remote succeeded. */
  readonly online: boolean;
  pull(spaceId: string): Promise<unknown>;
  sync(): Promise<unknown>;
  spaces(): Promise<readonly ReplicaStatus[]>;
  on(event: ReplicaEventName, listener: (payload: unknown) => void): () => void;
}

/** Why a sync ran. */
export type SyncTrigger = "background-sync" | "online" | "message" | "write";

/** What the worker posts to every page of its origin (`navigator.serviceWorker.onmessage`). */
export type ReplicaMessage =
  /** A replica event, as `replica.on` gave it (an `error` becomes its message). */
  | { readonly type: "docsbase-sync-event"; readonly event: ReplicaEventName; readonly detail: unknown }
  /** A sync ended: whether the remote answered, and every replicated space's status. */
  | {
      readonly type: "docsbase-synced";
      readonly trigger: SyncTrigger;
      readonly online: boolean;
      readonly spaces: readonly ReplicaStatus[];
    }
  /** A sync failed for another reason than being offline. */
  | { readonly type: "docsbase-sync-error"; readonly trigger: SyncTrigger; readonly message: string }
  /** The answer to a page's `{type: "docsbase-status"}`, posted to that page only. */
  | { readonly type: "docsbase-status"; readonly online: boolean; readonly spaces: readonly ReplicaStatus[] };

/** What a page may post to the worker. */
export type ReplicaRequest =
  /** Sync now; `spaces` not replicated yet are pulled first (which starts replicating them). */
  | { readonly type: "docsbase-sync"; readonly spaces?: readonly string[] }
  /** Post the status of every replicated space back to this page. */
  | { readonly type: "docsbase-status" };

/** An event the worker stays alive for until the promises given to `waitUntil` settle. */
export interface WorkerExtendableEvent {
  waitUntil(promise: Promise<unknown>): void;
}
/** A page's request to the worker. */
export interface WorkerFetchEvent extends WorkerExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
/** A Background Sync firing for `tag`. */
export interface WorkerSyncEvent extends WorkerExtendableEvent {
  readonly tag: string;
}
/** A page's `postMessage` to the worker. */
export interface WorkerMessageEvent extends WorkerExtendableEvent {
  readonly data: unknown;
  readonly source: { postMessage(message: ReplicaMessage): void } | null;
}

/**
 * The members of a service worker's global scope (`self`) the helper uses; the DOM library types a
 * window, not a worker.
 */
export interface ServiceWorkerScope {
  readonly location: { readonly origin: string };
  readonly registration: { readonly sync?: { register(tag: string): Promise<void> } };
  readonly clients: {
    matchAll(options: {
      type: "window";
      includeUncontrolled: boolean;
    }): Promise<readonly { postMessage(message: ReplicaMessage): void }[]>;
  };
  addEventListener(type: "fetch", listener: (event: WorkerFetchEvent) => void): void;
  addEventListener(type: "sync", listener: (event: WorkerSyncEvent) => void): void;
  addEventListener(type: "message", listener: (event: WorkerMessageEvent) => void): void;
  addEventListener(type: "online", listener: () => void): void;
}

export interface ServeReplicaOptions<R extends ServedReplica> {
  /** The local docsbase the replica keeps (the one given to `createReplica`): it answers `/v1`. */
  readonly docsbase: Pick<Docsbase, "fetch">;
  /**
   * The replica, or the promise `createReplica` returns: a service worker must add its listeners
   * while its script first runs (no top-level `await` there), so the helper waits for it itself.
   */
  readonly replica: R | Promise<R>;
  /**
   * After a write through `/v1` that succeeded, ask for a sync: a Background Sync registration
   * (the browser fires it once it is online, even with every page closed), or, in a browser
   * without Background Sync, a sync at once. Default `true`; `false` leaves syncing to the other
   * triggers.
   */
  readonly syncAfterWrites?: boolean;
}

/** What {@link serveReplica} returns. */
export interface ServedReplicaHandle<R extends ServedReplica> {
  /** The replica, once created. */
  readonly replica: Promise<R>;
  /**
   * Runs one sync now, as the triggers do: one sync at a time, and a trigger during a sync runs
   * one more after it. Resolves with whether the remote answered.
   */
  sync(trigger: SyncTrigger, spaces?: readonly string[]): Promise<boolean>;
}

/**
 * Serves a replica from a service worker: answers the pages' `/v1/...` requests (same origin) with
 * the local docsbase, as the replica's local user when a request carries no `authorization`
 * header; runs `replica.sync()` on the Background Sync tag {@link SYNC_TAG}, on the `online` event,
 * on a page's `{type: "docsbase-sync"}` message, and after local writes; and posts the replica's
 * events and each sync's result to the pages ({@link ReplicaMessage}).
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { indexedDbStorage } from "docsbase/adapters/indexeddb";
 * import { createReplica, serveReplica } from "docsbase/sync";
 *
 * const docsbase = createDocsbase({
 *   storage: indexedDbStorage({ name: "docs" }),
 *   baseUrl: self.location.origin,
 * });
 * const replica = createReplica({ docsbase, remote: "https://docs.example.com", token: USER_TOKEN });
 * self.addEventListener("install", () => self.skipWaiting());
 * self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
 * serveReplica(self, { docsbase, replica });
 * ```
 */
export function serveReplica<R extends ServedReplica>(
  scope: ServiceWorkerScope,
  options: ServeReplicaOptions<R>,
): ServedReplicaHandle<R> {
  const replica = Promise.resolve(options.replica);
  const broadcast = async (message: ReplicaMessage) => {
    const pages = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const page of pages) page.postMessage(message);
  };
  // A replica that could not be created fails each request and sync that needs it, not here.
  replica.then(
    (created) => {
      for (const event of ["pulled", "pushed", "conflict", "offline", "online"] as const) {
        created.on(event, (detail) => {
          void broadcast({ type: "docsbase-sync-event", event, detail: cloneable(detail) });
        });
      }
    },
    () => {},
  );

  // One sync at a time; triggers that arrive during one share a single sync after it.
  let running: Promise<boolean> | undefined;
  let queued: { run: Promise<boolean>; spaces: Set<string> } | undefined;
  const runOnce = async (trigger: SyncTrigger, spaces: Iterable<string>) => {
    const created = await replica;
    try {
      const known = new Set((await created.spaces()).map((status) => status.space));
      for (const space of spaces) if (!known.has(space)) await created.pull(space);
      await created.sync();
      await broadcast({
        type: "docsbase-synced",
        trigger,
        online: created.online,
        spaces: cloneable(await created.spaces()) as ReplicaStatus[],
      });
      return created.online;
    } catch (error) {
      await broadcast({ type: "docsbase-sync-error", trigger, message: messageOf(error) });
      throw error;
    }
  };
  const sync = (trigger: SyncTrigger, spaces: readonly string[] = []): Promise<boolean> => {
    if (!running) {
      running = runOnce(trigger, spaces).finally(() => (running = undefined));
      return running;
    }
    if (!queued) {
      const wanted = new Set<string>();
      const run = running
        .catch(() => false)
        .then(() => {
          queued = undefined;
          return sync(trigger, [...wanted]);
        });
      queued = { run, spaces: wanted };
    }
    for (const space of spaces) queued.spaces.add(space);
    return queued.run;
  };

  scope.addEventListener("fetch", (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin || !url.pathname.startsWith("/v1/")) return;
    event.respondWith(
      (async () => {
        const created = await replica;
        const response = await options.docsbase.fetch(await asLocalUser(event.request, created.token), event);
        if (options.syncAfterWrites !== false && isWrite(event.request.method) && response.ok) {
          event.waitUntil(requestSync());
        }
        return response;
      })(),
    );
  });
  const requestSync = async () => {
    const background = scope.registration.sync;
    if (background) await background.register(SYNC_TAG);
    else await sync("write").catch(() => {});
  };

  scope.addEventListener("sync", (event) => {
    if (event.tag !== SYNC_TAG) return;
    // Rejecting tells the browser the sync did not happen: it tries again later, with backoff.
    event.waitUntil(
      sync("background-sync").then((online) => {
        if (!online) throw new Error("docsbase: the remote did not answer; Background Sync will retry");
      }),
    );
  });
  scope.addEventListener("online", () => void sync("online").catch(() => {}));
  scope.addEventListener("message", (event) => {
    const data = event.data as Partial<ReplicaRequest> | null;
    if (data?.type === "docsbase-sync") {
      const spaces = "spaces" in data && Array.isArray(data.spaces) ? data.spaces.map(String) : [];
      event.waitUntil(sync("message", spaces).catch(() => {}));
    } else if (data?.type === "docsbase-status") {
      event.waitUntil(
        replica.then(async (created) =>
          event.source?.postMessage({
            type: "docsbase-status",
            online: created.online,
            spaces: cloneable(await created.spaces()) as ReplicaStatus[],
          }),
        ),
      );
    }
  });

  return { replica, sync };
}

function isWrite(method: string): boolean {
  return method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
}

/**
 * The request as the replica's local user when it names no one: pages of the origin could read the
 * token from IndexedDB anyway, so they need not hold it.
 */
async function asLocalUser(request: Request, token: string): Promise<Request> {
  if (request.headers.has("authorization")) return request;
  const headers = new Headers(request.headers);
  headers.set("authorization", `Bearer ${token}`);
  // A new request from parts: one built from a navigation request with an init is refused.
  return new Request(request.url, {
    method: request.method,
    headers,
    ...(isWrite(request.method) ? { body: await request.arrayBuffer() } : {}),
  });
}

/** A payload that survives `postMessage`: errors become their message. */
function cloneable(value: unknown): unknown {
  if (value instanceof Error) return value.message;
  if (Array.isArray(value)) return value.map(cloneable);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloneable(item)]));
  }
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
