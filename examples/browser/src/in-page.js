/**
 * docsbase in the page itself: no service worker, no server. The page hands its requests to
 * `docsbase.fetch`, which answers them from IndexedDB. Bundled by build.js into public/build/.
 */
import { createDocsbase } from "docsbase";
import { indexedDbStorage } from "docsbase/adapters/indexeddb";
import { startNotes } from "../public/notes.js";

const docsbase = createDocsbase({
  storage: indexedDbStorage({ name: "docsbase-example" }),
  baseUrl: location.origin,
});
await docsbase.bootstrap({ token: "dbt_example_operator_token" });
// The second argument starts the background jobs a request queues (processing an OpenAPI
// document, delivering a webhook...) at once; a page has nothing to keep alive, so it holds nothing.
startNotes((request) => docsbase.fetch(request, { waitUntil() {} }));
// Jobs due later (retries) run when something drains them.
setInterval(() => docsbase.runJobs(), 10_000);
