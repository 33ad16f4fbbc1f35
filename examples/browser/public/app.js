/**
 * The service-worker example's page: it registers service-worker.js (docsbase on IndexedDB, built
 * by build.js) and then calls `/v1` with plain `fetch`, which the worker answers.
 */
import { startNotes } from "./notes.js";

try {
  await navigator.serviceWorker.register("/service-worker.js", { type: "module" });
  await navigator.serviceWorker.ready;
  // On the first visit the page loaded before the worker existed: wait until it controls the page.
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
    );
  }
  startNotes((request) => fetch(request));
} catch (error) {
  document.querySelector("#saved").textContent = `Error: the service worker did not start (${error.message})`;
}
