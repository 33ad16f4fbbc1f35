import { describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { createDocsbase } from "../src/index.js";
import {
  serveReplica,
  SYNC_TAG,
  type ReplicaEventName,
  type ReplicaMessage,
  type ServedReplica,
  type ServiceWorkerScope,
} from "../src/sync/service-worker.js";
import type { ReplicaStatus } from "../src/sync/index.js";

/**
 * `serveReplica`'s own rules, in Node with a stand-in for the service worker's global scope and a
 * replica that records its calls: which requests the worker answers and as whom, which writes ask
 * for a Background Sync, how triggers share a sync, and what the pages are told. The replica
 * syncing with a real server in a real service worker is test/browser-sync-worker.test.ts.
 */
const ORIGIN = "https://app.test";
const TOKEN = "dbt_local_user_token_for_tests";

type Listener = (event: any) => void;

function world(options: { backgroundSync?: boolean; syncAfterWrites?: boolean } = {}) {
  const listeners = new Map<string, Listener[]>();
  const posted: ReplicaMessage[] = [];
  const registered: string[] = [];
  const scope: ServiceWorkerScope = {
    location: { origin: ORIGIN },
    registration:
      options.backgroundSync === false
        ? {}
        : { sync: { register: async (tag) => void registered.push(tag) } },
    clients: { matchAll: async () => [{ postMessage: (message) => void posted.push(message) }] },
    addEventListener: (type: string, listener: Listener) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  };
  const docsbase = createDocsbase({ storage: memoryStorage(), baseUrl: ORIGIN });
  const events = new Map<ReplicaEventName, ((payload: unknown) => void)[]>();
  let release: (() => void) | undefined;
  const replica = {
    token: TOKEN,
    online: true as boolean,
    syncs: 0,
    pulled: [] as string[],
    /** When set, a sync waits until `open()` is called. */
    hold: false,
    async pull(space: string) {
      this.pulled.push(space);
    },
    async sync() {
      this.syncs++;
      if (this.hold) await new Promise<void>((resolve) => (release = resolve));
    },
    async spaces() {
      return this.pulled.map((space) => ({ space }) as ReplicaStatus);
    },
    on(event: ReplicaEventName, listener: (payload: unknown) => void) {
      events.set(event, [...(events.get(event) ?? []), listener]);
      return () => {};
    },
    emit(event: ReplicaEventName, payload: unknown) {
      for (const listener of events.get(event) ?? []) listener(payload);
    },
  };
  replica satisfies ServedReplica;
  const served = serveReplica(scope, {
    docsbase,
    replica: docsbase.bootstrap({ token: TOKEN }).then(() => replica),
    ...(options.syncAfterWrites === undefined ? {} : { syncAfterWrites: options.syncAfterWrites }),
  });

  /** Dispatches an event; resolves with its answer (if answered) once everything it waits for settled. */
  const dispatch = async (type: string, fields: Record<string, unknown>) => {
    let answer: Promise<Response> | undefined;
    const waits: Promise<unknown>[] = [];
    const event = {
      ...fields,
      respondWith: (response: Promise<Response>) => (answer = response),
      waitUntil: (promise: Promise<unknown>) => waits.push(promise),
    };
    for (const listener of listeners.get(type) ?? []) listener(event);
    const response = await answer;
    const settled = await Promise.allSettled(waits);
    return { response, settled };
  };
  const request = (path: string, init: RequestInit = {}) =>
    dispatch("fetch", { request: new Request(new URL(path, ORIGIN), init) });
  const open = () => release?.();
  return { served, replica, posted, registered, dispatch, request, open };
}

const write = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("serveReplica", () => {
  it("answers the origin's /v1 with the local docsbase, as the replica's user when a request names no one", async () => {
    const { request } = world();
    const me = await request("/v1/user");
    expect(me.response?.status).toBe(200);
    const caller = await request("/v1/user", {
      headers: { authorization: "Bearer dbt_someone_else_entirely" },
    });
    expect(caller.response?.status).toBe(401);
    const created = await request("/v1/orgs", write({ title: "Written offline" }));
    expect(created.response?.status).toBe(201);
    expect(((await created.response!.json()) as { title: string }).title).toBe("Written offline");
    // Not the worker's: another origin, or a path outside /v1.
    expect((await request("https://docs.example.com/v1/user")).response).toBeUndefined();
    expect((await request("/index.html")).response).toBeUndefined();
  });

  it("asks for a Background Sync after a write that succeeded, and only then", async () => {
    const { request, registered } = world();
    await request("/v1/user");
    await request("/v1/orgs", write({ title: "" }));
    expect(registered).toEqual([]);
    await request("/v1/orgs", write({ title: "Docs team" }));
    expect(registered).toEqual([SYNC_TAG]);

    const quiet = world({ syncAfterWrites: false });
    await quiet.request("/v1/orgs", write({ title: "Docs team" }));
    expect(quiet.registered).toEqual([]);
  });

  it("syncs at once after a write where the browser has no Background Sync", async () => {
    const { request, replica, posted } = world({ backgroundSync: false });
    await request("/v1/orgs", write({ title: "Docs team" }));
    expect(replica.syncs).toBe(1);
    expect(posted).toEqual([{ type: "docsbase-synced", trigger: "write", online: true, spaces: [] }]);
  });

  it("syncs on its Background Sync tag, and fails the event while the remote does not answer", async () => {
    const { dispatch, replica, posted } = world();
    expect((await dispatch("sync", { tag: "someone-elses" })).settled).toEqual([]);
    expect(replica.syncs).toBe(0);
    const [done] = (await dispatch("sync", { tag: SYNC_TAG })).settled;
    expect(done?.status).toBe("fulfilled");
    replica.online = false;
    const [failed] = (await dispatch("sync", { tag: SYNC_TAG })).settled;
    expect(failed?.status).toBe("rejected");
    expect(replica.syncs).toBe(2);
    expect(posted.map((message) => message.type === "docsbase-synced" && message.online)).toEqual([
      true,
      false,
    ]);
  });

  it("syncs on the online event and on a page's message, pulling the spaces it names first", async () => {
    const { dispatch, replica, posted, served } = world();
    await served.replica;
    await dispatch("online", {});
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ type: "docsbase-synced", trigger: "online" });
    const before = replica.syncs;
    expect(before).toBe(1);
    await dispatch("message", { data: { type: "docsbase-sync", spaces: ["space_a", "space_b"] } });
    expect(replica.syncs).toBe(before + 1);
    expect(replica.pulled).toEqual(["space_a", "space_b"]);
    await dispatch("message", { data: { type: "docsbase-sync", spaces: ["space_a"] } });
    expect(replica.pulled).toEqual(["space_a", "space_b"]);
    expect(posted.at(-1)).toEqual({
      type: "docsbase-synced",
      trigger: "message",
      online: true as boolean,
      spaces: [{ space: "space_a" }, { space: "space_b" }],
    });
    await dispatch("message", { data: { type: "something else" } });
    await dispatch("message", { data: null });
    expect(replica.syncs).toBe(before + 2);
  });

  it("runs one sync at a time: triggers during one share a single sync after it", async () => {
    const { served, replica, open } = world();
    await served.replica;
    replica.hold = true;
    const first = served.sync("message");
    const later = [
      served.sync("online"),
      served.sync("message", ["space_c"]),
      served.sync("background-sync"),
    ];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(replica.syncs).toBe(1);
    replica.hold = false;
    open();
    expect(await first).toBe(true);
    expect(await Promise.all(later)).toEqual([true, true, true]);
    expect(replica.syncs).toBe(2);
    expect(replica.pulled).toEqual(["space_c"]);
  });

  it("posts the replica's events to the pages, errors as their message, and answers a status request to its page", async () => {
    const { dispatch, replica, posted, served } = world();
    await served.replica;
    replica.emit("offline", { error: new TypeError("Failed to fetch") });
    replica.emit("pushed", { space: "space_a", changeRequest: { id: "cr_1" }, result: "update" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(posted).toEqual([
      { type: "docsbase-sync-event", event: "offline", detail: { error: "Failed to fetch" } },
      {
        type: "docsbase-sync-event",
        event: "pushed",
        detail: { space: "space_a", changeRequest: { id: "cr_1" }, result: "update" },
      },
    ]);
    const answered: ReplicaMessage[] = [];
    await dispatch("message", {
      data: { type: "docsbase-status" },
      source: { postMessage: (message: ReplicaMessage) => answered.push(message) },
    });
    expect(answered).toEqual([{ type: "docsbase-status", online: true, spaces: [] }]);
    expect(posted).toHaveLength(2);
  });
});
