/**
 * The service-worker script of the browser test: docsbase on IndexedDB answers every `/v1/...`
 * request of the page itself, so the page talks to the API with plain `fetch` and no server.
 */
import { indexedDbStorage } from "../../src/adapters/indexeddb/index.js";
import { createDocsbase } from "../../src/index.js";

/** The service-worker globals used here (the DOM library types a window, not a worker). */
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
declare const self: {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install", listener: () => void): void;
  addEventListener(
    type: "activate",
    listener: (event: Event & { waitUntil(p: Promise<unknown>): void }) => void,
  ): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
};

const docsbase = createDocsbase({
  storage: indexedDbStorage({ name: "docsbase-worker-test" }),
  baseUrl: self.location.origin,
});
const ready = docsbase.bootstrap({ token: "dbt_service_worker_token" });

self.addEventListener("install", () => void self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  if (!new URL(event.request.url).pathname.startsWith("/v1/")) return;
  event.respondWith(ready.then(() => docsbase.fetch(event.request)));
});
