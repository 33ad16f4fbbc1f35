/**
 * The page script of the browser test: docsbase on IndexedDB, inside a real browser page, served
 * through its fetch handler with no server behind it. Exposed as `window.docsbaseScenario`.
 */
import { indexedDbStorage } from "../../src/adapters/indexeddb/index.js";
import { createDocsbase } from "../../src/index.js";

const TOKEN = "dbt_browser_scenario_token";
const docsbase = createDocsbase({
  storage: indexedDbStorage({ name: "docsbase-browser-test" }),
  baseUrl: location.origin,
});

async function call(method: string, path: string, body?: unknown) {
  const response = await docsbase.fetch(
    new Request(`${location.origin}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
}

async function write() {
  await docsbase.bootstrap({ token: TOKEN });
  const org = await call("POST", "/orgs", { title: "Offline" });
  const space = await call("POST", `/orgs/${org.body.id}/spaces`, { title: "Field notes" });
  const page = await call("POST", `/spaces/${space.body.id}/content/pages`, {
    title: "Written offline",
    markdown: "# Hello\n\nStored in IndexedDB.",
  });
  return {
    space: space.body.id as string,
    page: page.body.id as string,
    statuses: [org.status, space.status, page.status],
  };
}

async function read(ids: { space: string; page: string }) {
  const page = await call("GET", `/spaces/${ids.space}/content/page/${ids.page}?format=markdown`);
  const search = await call("GET", `/spaces/${ids.space}/search?query=indexeddb`);
  return {
    status: page.status,
    title: page.body.title,
    markdown: page.body.markdown,
    hits: search.body.count,
  };
}

(globalThis as unknown as { docsbaseScenario: unknown }).docsbaseScenario = { write, read };
