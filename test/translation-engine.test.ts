import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GitBookAPI, TranslationLanguage } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { libreTranslate } from "../src/core/translations/libretranslate.js";
import { createTestDocsbase, type TestClient } from "../src/testing/double.js";

/**
 * A LibreTranslate-compatible server on 127.0.0.1 (reached with the private-network opt-in): it
 * "translates" by prefixing the target language, checks the API key, and records every request.
 */
interface Received {
  q: string[];
  source: string;
  target: string;
  format: string;
  api_key?: string;
}

let server: Server;
let url: string;
const received: Received[] = [];
let failAfter = Infinity;

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = JSON.parse(await bodyOf(request)) as Received;
    received.push(body);
    response.setHeader("content-type", "application/json");
    if (request.url !== "/translate" || request.method !== "POST") {
      response.writeHead(404).end(JSON.stringify({ error: "Not found" }));
    } else if (body.api_key !== "secret-key") {
      response.writeHead(403).end(JSON.stringify({ error: "Invalid API key" }));
    } else if (received.length > failAfter) {
      response.writeHead(500).end(JSON.stringify({ error: "Model crashed" }));
    } else {
      response.end(JSON.stringify({ translatedText: body.q.map((text) => `<${body.target}> ${text}`) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function setup(apiKey = "secret-key") {
  const test = await createTestDocsbase({
    storage: memoryStorage(),
    allowPrivateNetwork: true,
    translator: libreTranslate({ url: `${url}/`, apiKey, batchSize: 3 }),
  });
  const api = test.as(await test.createUser("Owner"));
  const org = (await api.createOrganization({ body: { title: "Acme" } })).id;
  const space = (await api.createSpace({ organizationId: org, body: { title: "Guide" } })).id;
  /** Queues a translation of the space into `language`. */
  const translate = (language: "pt-br" | "fr") =>
    api.createTranslation({ organizationId: org, body: { language, source: { space, language: "en" } } });
  return { test, api, org, space, translate };
}

/** The titles of a space's pages, and the first page's id. */
async function pagesOf(api: TestClient, spaceId: string) {
  const content = await api.getCurrentRevision({ spaceId });
  return { titles: content.pages.map((page) => page.title), first: content.pages[0]!.id };
}

describe("LibreTranslate engine", () => {
  it("translates a space through the server, in batches, with the API key", async () => {
    received.length = 0;
    failAfter = Infinity;
    const { test, api, org, space, translate } = await setup();
    await api.createPage({
      spaceId: space,
      body: {
        title: "Start",
        markdown: "One line.\n\nTwo `code` lines.\n\nThree [links](https://example.com).\n",
      },
    });
    const created = await translate("pt-br");
    await test.docsbase.runJobs();
    const translation = await api.getTranslation({ organizationId: org, translationId: created.id });
    expect(translation.status).toBe("completed");
    // Six texts (title, five segments) in batches of at most three.
    expect(received.map((request) => request.q.length)).toEqual([3, 3]);
    expect(received.every((request) => request.api_key === "secret-key")).toBe(true);
    expect(received[0]).toMatchObject({ source: "en", target: "pt-BR", format: "text" });
    const result = created.result!.space;
    const { titles, first } = await pagesOf(api, result);
    expect(titles[0]).toBe("<pt-BR> Start");
    const page = await api.getPageById({ spaceId: result, pageId: first, format: "markdown" });
    expect(page.markdown).toBe(
      "<pt-BR> One line.\n\n<pt-BR> Two `code` <pt-BR> lines.\n\n<pt-BR> Three [<pt-BR> links](https://example.com).\n",
    );
  });

  it("keeps the previous result when the server fails midway, and says why", async () => {
    received.length = 0;
    failAfter = Infinity;
    const { test, api, org, space, translate } = await setup();
    const page = await api.createPage({ spaceId: space, body: { title: "A", markdown: "Alpha." } });
    const created = await translate("fr");
    const translation = { organizationId: org, translationId: created.id };
    await test.docsbase.runJobs();
    const before = await api.getTranslation(translation);
    await api.updatePage({
      spaceId: space,
      pageId: page.id,
      body: { title: "B", markdown: "Beta one.\n\nBeta two.\n\nBeta three.\n\nBeta four.\n" },
    });
    failAfter = received.length + 1; // the next batch passes, the one after fails
    await api.runTranslation(translation);
    await test.docsbase.runJobs();
    const after = await api.getTranslation(translation);
    expect(after.status).toBe("pending");
    expect(after.result!.revision).toBe(before.result!.revision);
    const [job] = await test.docsbase.jobs();
    expect(job?.error).toContain("LibreTranslate answered 500: Model crashed");
    expect((await pagesOf(api, created.result!.space)).titles[0]).toBe("<fr> A");
  });

  it("fails the run with the server's message on a wrong API key", async () => {
    received.length = 0;
    failAfter = Infinity;
    const { test, api, space, translate } = await setup("wrong");
    await api.createPage({ spaceId: space, body: { title: "A", markdown: "Alpha." } });
    await translate("fr");
    await test.docsbase.runJobs();
    const [job] = await test.docsbase.jobs();
    expect(job?.error).toContain("403: Invalid API key");
  });

  it("is refused the loopback server without the private-network opt-in", async () => {
    received.length = 0;
    const test = await createTestDocsbase({
      storage: memoryStorage(),
      translator: libreTranslate({ url, apiKey: "secret-key" }),
    });
    const api = test.as(await test.createUser("Owner"));
    const org = (await api.createOrganization({ body: { title: "Acme" } })).id;
    const space = (await api.createSpace({ organizationId: org, body: { title: "Guide" } })).id;
    await api.createPage({ spaceId: space, body: { title: "A" } });
    await api.createTranslation({
      organizationId: org,
      body: { language: "fr", source: { space, language: "en" } },
    });
    await test.docsbase.runJobs();
    expect(received).toHaveLength(0);
    const [job] = await test.docsbase.jobs();
    expect(job?.error).toMatch(/refused|private|loopback/i);
  });
});

/** The worked example of docs/translations.md, run as written there (the doc's code is this code). */
it("runs the worked example of docs/translations.md", async () => {
  // --- docs/translations.md, "A worked example" ---
  // 1. An engine: here a function; `libreTranslate({ url, apiKey })` talks to a LibreTranslate server.
  const test = await createTestDocsbase({
    translator: async ({ texts, to }) => texts.map((text) => `(${to}) ${text}`),
  });
  const owner = await test.createUser("Owner", "owner@example.test");
  const api = new GitBookAPI({
    endpoint: test.endpoint,
    authToken: owner.token,
    serviceBinding: { fetch: test.fetch },
  });
  // Organizations and page writes are docsbase's own operations: the typed client has them.
  const { id: org } = await test.as(owner).createOrganization({ body: { title: "Acme" } });
  // 2. A source space with a page of prose, code, a link and an expression.
  const { data: guide } = await api.orgs.createSpace(org, { title: "Guide" });
  await test.as(owner).createPage({
    spaceId: guide.id,
    body: {
      title: "Install",
      markdown:
        "Run `npm i acme` as in [the notes](https://acme.test/notes).\n\nVersion {{ space.vars.v }}.\n",
    },
  });
  // 3. Translate it into French: 201, a result space, and a queued run.
  const { data: created } = await api.orgs.createTranslation(org, {
    language: TranslationLanguage.Fr,
    source: { space: guide.id, language: TranslationLanguage.En },
  });
  await test.docsbase.runJobs(); // the standalone server runs it within a second
  // 4. The run committed one revision of the result space.
  const { data: done } = await api.orgs.getTranslation(org, created.id);
  const { data: page } = await api.spaces.getPageByPath(done.result!.space, "install", {
    format: "markdown",
  });
  // --- end of the example ---
  expect(done.status).toBe("completed");
  expect(done.stats).toMatchObject({ runs: 1, totalPages: 1, latestPages: 1, latestWords: 7 });
  expect(page.title).toBe("(fr) Install");
  expect((page as { markdown?: string }).markdown).toBe(
    "(fr) Run `npm i acme` (fr) as in [(fr) the notes](https://acme.test/notes).\n\n(fr) Version {{ space.vars.v }}.\n",
  );
});
