/**
 * The page of both examples: a form that writes a page of documentation through the API and reads
 * it back. `send(request)` is how a request reaches docsbase: plain `fetch` when a service worker
 * answers `/v1` (app.js), `docsbase.fetch` when docsbase runs in the page itself (src/in-page.js).
 */
const TOKEN = "dbt_example_operator_token";

export function startNotes(send) {
  async function api(method, path, body) {
    const request = new Request(new URL(`/v1${path}`, location.href), {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const response = await send(request);
    const json = response.status === 204 ? undefined : await response.json();
    if (!response.ok) throw new Error(`${method} /v1${path}: ${json.error.message}`);
    return json;
  }

  /** The space the notes go to, made on the first save and remembered by the browser. */
  async function space() {
    const saved = localStorage.getItem("docsbase-example-space");
    if (saved) return saved;
    const org = await api("POST", "/orgs", { title: "Notes" });
    const created = await api("POST", `/orgs/${org.id}/spaces`, { title: "My notes" });
    localStorage.setItem("docsbase-example-space", created.id);
    return created.id;
  }

  const form = document.querySelector("form");
  const output = document.querySelector("#saved");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const spaceId = await space();
      const page = await api("POST", `/spaces/${spaceId}/content/pages`, {
        title: form.elements.title.value,
        markdown: form.elements.markdown.value,
      });
      // Read back what was written, as any client of the API would.
      const read = await api("GET", `/spaces/${spaceId}/content/page/${page.id}?format=markdown`);
      const found = await api("GET", `/spaces/${spaceId}/search?query=${encodeURIComponent(read.title)}`);
      output.textContent = `${read.title}\n\n${read.markdown}\n\n(${found.count} found by search)`;
    } catch (error) {
      output.textContent = `Error: ${error.message}`;
    }
  });
  form.querySelector("button").disabled = false;
}
