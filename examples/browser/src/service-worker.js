/**
 * docsbase in a service worker: every `/v1/...` request of the pages it controls is answered here,
 * from IndexedDB, with no server and no network. Bundled by build.js into public/service-worker.js.
 */
import { createDocsbase } from "docsbase";
import { indexedDbStorage } from "docsbase/adapters/indexeddb";

/** The operator's token, which the pages send as a bearer token (16 characters or more). */
const TOKEN = "dbt_example_operator_token";

const docsbase = createDocsbase({
  storage: indexedDbStorage({ name: "docsbase-example" }),
  baseUrl: self.location.origin,
});
// The operator user exists from the first request on; the same token on every start of the worker.
const ready = docsbase.bootstrap({ token: TOKEN });

// Take over the open pages at once, instead of on their next load.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith("/v1/")) return;
  // `event` as the context: background jobs a request queues (processing an OpenAPI document,
  // delivering a webhook...) run in `event.waitUntil`, so the browser keeps the worker alive meanwhile.
  event.respondWith(ready.then(() => docsbase.fetch(event.request, event)));
});
