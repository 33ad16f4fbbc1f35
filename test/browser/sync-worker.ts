/**
 * The service worker of the issue-26 browser test: a replica of a remote space on IndexedDB,
 * served to the pages by `serveReplica`. The remote token comes in the script's query string
 * (`/sync-worker.js?token=...`), which the test registers.
 */
import { indexedDbStorage } from "../../src/adapters/indexeddb/index.js";
import { createDocsbase } from "../../src/index.js";
import { createReplica, serveReplica, type ServiceWorkerScope } from "../../src/sync/index.js";

declare const self: ServiceWorkerScope & {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install", listener: () => void): void;
  addEventListener(
    type: "activate",
    listener: (event: Event & { waitUntil(promise: Promise<unknown>): void }) => void,
  ): void;
};

const token = new URL(self.location.href).searchParams.get("token") ?? "";
const docsbase = createDocsbase({
  storage: indexedDbStorage({ name: "docsbase-sync-worker-test" }),
  baseUrl: self.location.origin,
});
// The remote is the worker's own origin, where the site passes `/v1` on to `docsbase serve`: the
// worker's own requests do not go through its fetch listener, the pages' do.
const replica = createReplica({ docsbase, remote: self.location.origin, token });

self.addEventListener("install", () => void self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
serveReplica(self, { docsbase, replica });
