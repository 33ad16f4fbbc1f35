import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { GitBookAPI, OpenAPISpecVisibility } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocsbaseOptions } from "../src/index.js";
import type { ClientInput } from "../src/core/client.js";
import { MAX_FILE_BYTES } from "../src/core/openapi/document.js";
import type { Operations } from "../src/core/operations.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { firstResolved } from "./support/jobs.js";

/**
 * OpenAPI processing against a real HTTP server on 127.0.0.1 (docs/openapi-specs.md,
 * "Processing"): documents by URL and by text, Swagger 2.0, external `$ref`s, each error code, a
 * timeout, a redirect to a refused address, an oversized document, versions made only when the
 * content changes, and one organization's spec processed while another's hang (queue fairness).
 */

const PETS_YAML = `openapi: 3.1.0
info:
  title: Pets
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        "200":
          description: The pets
`;

const SWAGGER = JSON.stringify({
  swagger: "2.0",
  info: { title: "Legacy", version: "2" },
  paths: { "/things": { get: { responses: { "200": { description: "Things" } } } } },
});

const WITH_REF = `openapi: 3.0.3
info: { title: Split, version: "1" }
paths:
  /pets:
    get:
      responses:
        "200":
          description: The pets
          content:
            application/json:
              schema:
                $ref: "schemas/pet.yaml#/Pet"
`;
const PET_SCHEMA = `Pet:
  type: object
  properties:
    name: { type: string }
    owner:
      $ref: "owner.json"
`;
const OWNER_SCHEMA = JSON.stringify({ type: "object", properties: { name: { type: "string" } } });

/** A document whose four `$ref`s reach the server's `/slow`, which never answers. */
const SLOW_REFS = `openapi: 3.1.0
info: { title: Slow, version: "1" }
paths:
${[1, 2, 3, 4]
  .map(
    (n) => `  /p${n}:
    get:
      responses:
        "200": { $ref: "slow?n=${n}#/Answer" }
`,
  )
  .join("")}`;

const EXAMPLE_ROOT = `openapi: 3.1.0
info: { title: Pets, version: 1.0.0 }
paths:
  /pets:
    get:
      responses:
        "200":
          description: The pets
          content: { application/json: { schema: { $ref: "schemas.yaml#/Pet" } } }
`;

/** What the server answers, by path; a function for dynamic answers. */
const routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>();
const text =
  (body: string, status = 200) =>
  (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, { "content-type": "text/plain" });
    response.end(body);
  };
let server: Server;
let origin: string;
let changing = PETS_YAML;

beforeAll(async () => {
  server = createServer((request, response) => {
    const route = routes.get(new URL(request.url ?? "/", "http://x").pathname);
    if (route) route(request, response);
    else text("not found", 404)(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set("/pets.yaml", text(PETS_YAML));
  routes.set("/swagger.json", text(SWAGGER));
  routes.set("/split/openapi.yaml", text(WITH_REF));
  routes.set("/split/schemas/pet.yaml", text(PET_SCHEMA));
  routes.set("/split/schemas/owner.json", text(OWNER_SCHEMA));
  routes.set("/broken-ref.yaml", text(WITH_REF.replace("schemas/pet.yaml", "missing.yaml")));
  routes.set("/split/bad-pointer.yaml", text(WITH_REF.replace("#/Pet", "#/Nope")));
  routes.set("/invalid.yaml", text(PETS_YAML.replace("description: The pets", "summary: no description")));
  routes.set("/not-openapi.json", text(JSON.stringify({ hello: "world" })));
  routes.set("/garbage.yaml", text("openapi: 3.1.0\ninfo: [unclosed\n  : :"));
  routes.set("/server-error", text("boom", 500));
  routes.set("/changing.yaml", (_, response) => response.end(changing));
  routes.set("/slow", () => {
    // Never answers: the outbound deadline fails the fetch.
  });
  routes.set("/slow-refs.yaml", text(SLOW_REFS));
  routes.set("/huge.yaml", (_, response) => {
    response.writeHead(200, { "content-type": "application/yaml" });
    response.end(`${PETS_YAML}x-padding: "${"a".repeat(MAX_FILE_BYTES)}"\n`);
  });
  routes.set("/example/openapi.yaml", text(EXAMPLE_ROOT));
  routes.set(
    "/example/schemas.yaml",
    text("Pet: { type: object, properties: { name: { type: string } } }\n"),
  );
  routes.set("/to-private", (_, response) => {
    response.writeHead(302, { location: "http://127.0.0.1/pets.yaml" });
    response.end();
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type OpenAPISpecSource = ClientInput<Operations["createOpenAPISpec"]>["body"]["source"];

/** A docsbase that may reach 127.0.0.1, an admin with an organization, and helpers. */
async function setup(options: Partial<DocsbaseOptions> = {}) {
  const test = await createTestDocsbase({
    allowPrivateNetwork: true,
    outbound: { timeoutMs: 1000 },
    ...options,
  });
  const admin = await test.createUser("Admin");
  const client = test.as(admin);
  const org = (await client.createOrganization({ body: { title: "Acme" } })).id;
  /** The spec `specSlug` of the organization, as path parameters. */
  const spec = (specSlug: string) => ({ organizationId: org, specSlug });
  /** Creates (or replaces) the spec `slug` with `source`, runs the jobs and answers the spec. */
  async function process(slug: string, source: OpenAPISpecSource) {
    const put = await client.createOrUpdateOpenAPISpecBySlug({ ...spec(slug), body: { source } });
    expect(put.processingState).toBe("pending");
    await test.docsbase.runJobs();
    const processed = await client.getOpenAPISpecBySlug(spec(slug));
    expect(processed.processingState).toBe("complete");
    return processed;
  }
  return { test, client, org, spec, process };
}

describe("OpenAPI processing", () => {
  it("processes a 3.1 YAML document by URL and by text into a version", async () => {
    const { client, spec, process } = await setup();
    const byUrl = await process("pets", { url: `${origin}/pets.yaml` });
    expect(byUrl).toMatchObject({ sourceURL: `${origin}/pets.yaml`, lastVersion: expect.any(String) });
    expect(byUrl.lastProcessErrorCode).toBeUndefined();
    expect(byUrl.lastProcessedAt).toEqual(expect.any(String));
    const content = await client.getLatestOpenAPISpecVersionContent(spec("pets"));
    expect(content.url).toBe(`${origin}/pets.yaml`);
    expect(Object.keys(content.filesystem)).toEqual([`${origin}/pets.yaml`]);
    expect(content.filesystem[content.url]).toMatchObject({ openapi: "3.1.0", info: { title: "Pets" } });

    const byText = await process("pets-text", { text: PETS_YAML });
    expect(byText.sourceURL).toBeUndefined();
    const version = await client.getLatestOpenAPISpecVersion(spec("pets-text"));
    expect(version.id).toBe(byText.lastVersion);
    const textContent = await client.getOpenAPISpecVersionContentById({
      ...spec("pets-text"),
      versionId: version.id,
    });
    expect(textContent.url).toBe(version.url);
    expect(textContent.filesystem[textContent.url]).toEqual(content.filesystem[content.url]);
  });

  it("processes a Swagger 2.0 document", async () => {
    const { process } = await setup();
    const spec = await process("legacy", { url: `${origin}/swagger.json` });
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastVersion).toEqual(expect.any(String));
  });

  it("fetches the files of external $refs, relative to the file holding them, into the content", async () => {
    const { client, spec, process } = await setup();
    const split = await process("split", { url: `${origin}/split/openapi.yaml` });
    expect(split.lastProcessErrorCode).toBeUndefined();
    const content = await client.getLatestOpenAPISpecVersionContent(spec("split"));
    expect(Object.keys(content.filesystem).sort()).toEqual(
      [
        `${origin}/split/openapi.yaml`,
        `${origin}/split/schemas/pet.yaml`,
        `${origin}/split/schemas/owner.json`,
      ].sort(),
    );
    expect(content.filesystem[`${origin}/split/schemas/pet.yaml`]).toMatchObject({ Pet: { type: "object" } });
  });

  it("records FETCH_ERROR for a non-2xx answer, an unreachable $ref and an unknown port; no version", async () => {
    const { process } = await setup();
    const failed = await process("down", { url: `${origin}/server-error` });
    expect(failed.lastProcessErrorCode).toBe("FETCH_ERROR");
    expect(failed.lastProcessedErrors![0]!.message).toContain("500");
    expect(failed.lastVersion).toBeUndefined();

    const ref = await process("broken-ref", { url: `${origin}/broken-ref.yaml` });
    expect(ref.lastProcessErrorCode).toBe("FETCH_ERROR");
    expect(ref.lastProcessedErrors![0]!.message).toContain(`${origin}/broken-ref.yaml#/paths/~1pets/get`);
    expect(ref.lastProcessedErrors![0]!.message).toContain("404");

    const closed = await process("closed", { url: "http://127.0.0.1:1/openapi.yaml" });
    expect(closed.lastProcessErrorCode).toBe("FETCH_ERROR");
  });

  it("records PARSE_ERROR for text that does not parse, a document that does not validate or is not OpenAPI, and a missing pointer", async () => {
    const { process } = await setup();
    for (const [slug, path, expected] of [
      ["garbage", "/garbage.yaml", /garbage\.yaml:\d+:\d+: /],
      ["invalid", "/invalid.yaml", /#\/paths\/~1pets\/get\/responses\/200: .*description/],
      ["not-openapi", "/not-openapi.json", /not an OpenAPI document/],
      ["bad-pointer", "/split/bad-pointer.yaml", /nothing at "#\/Nope"/],
    ] as const) {
      const spec = await process(slug, { url: `${origin}${path}` });
      expect(spec.lastProcessErrorCode, slug).toBe("PARSE_ERROR");
      expect(spec.lastProcessedErrors!.map((error) => error.message).join("\n"), slug).toMatch(expected);
      expect(spec.lastVersion, slug).toBeUndefined();
    }
    const text = await process("text-garbage", { text: "{ not json" });
    expect(text.lastProcessErrorCode).toBe("PARSE_ERROR");
  });

  it("records FETCH_TIMEOUT when the server does not answer within the outbound deadline", async () => {
    const { process } = await setup({ outbound: { timeoutMs: 200 } });
    const spec = await process("slow", { url: `${origin}/slow` });
    expect(spec.lastProcessErrorCode).toBe("FETCH_TIMEOUT");
    expect(spec.lastProcessedErrors![0]!.message).toContain(`${origin}/slow`);
  });

  it("ends at the job's deadline however many fetches are left, not after one outbound deadline each", async () => {
    // Four fetches of 10 s each took 40 s; the job's time (jobTimeoutMs) now bounds them all.
    const { process } = await setup({ outbound: { timeoutMs: 10_000 }, jobs: { jobTimeoutMs: 200 } });
    const spec = await process("slow-refs", { url: `${origin}/slow-refs.yaml` });
    expect(spec.lastProcessErrorCode).toBe("FETCH_TIMEOUT");
    expect(spec.lastProcessedErrors![0]!.message).toContain("the processing passed its deadline");
    expect(spec.lastProcessedErrors).toHaveLength(4);
  });

  it("records FETCH_ERROR for a redirect to a refused address", async () => {
    // The guard sees `public.test` as a public address; the transport still reaches the local
    // server, whose redirect to 127.0.0.1 the guard refuses (private network not allowed).
    const { process } = await setup({
      allowPrivateNetwork: false,
      outbound: {
        resolveHost: async () => ["93.184.215.14"],
        transport: (input, init) => {
          const url = new URL(input instanceof Request ? input.url : input);
          return fetch(`${origin}${url.pathname}`, init);
        },
      },
    });
    const spec = await process("redirected", { url: "http://public.test/to-private" });
    expect(spec.lastProcessErrorCode).toBe("FETCH_ERROR");
    expect(spec.lastProcessedErrors![0]!.message).toContain("address_refused");
  });

  it("records FETCH_ERROR for a document over the size limit, and refuses such a text", async () => {
    const { client, org, process } = await setup();
    const spec = await process("huge", { url: `${origin}/huge.yaml` });
    expect(spec.lastProcessErrorCode).toBe("FETCH_ERROR");
    expect(spec.lastProcessedErrors![0]!.message).toContain(`${MAX_FILE_BYTES} bytes`);
    await expect(
      client.createOpenAPISpec({
        organizationId: org,
        body: { slug: "huge-text", source: { text: "a".repeat(MAX_FILE_BYTES + 1) } },
      }),
    ).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("body.source.text") });
  });

  it("makes a new version only when the content changed, and a valid document clears the error", async () => {
    const { client, spec, process } = await setup();
    changing = PETS_YAML;
    const first = await process("changing", { url: `${origin}/changing.yaml` });
    const again = await process("changing", { url: `${origin}/changing.yaml` });
    expect(again.lastVersion).toBe(first.lastVersion);
    expect(again.lastProcessedAt).toEqual(expect.any(String));
    expect((await client.listOpenAPISpecVersions(spec("changing"))).count).toBe(1);

    changing = "not: [valid";
    const broken = await process("changing", { url: `${origin}/changing.yaml` });
    expect(broken.lastProcessErrorCode).toBe("PARSE_ERROR");
    expect(broken.lastVersion).toBe(first.lastVersion);

    changing = PETS_YAML.replace("title: Pets", "title: Pets and more");
    const changed = await process("changing", { url: `${origin}/changing.yaml` });
    expect(changed.lastProcessErrorCode).toBeUndefined();
    expect(changed.lastProcessedErrors).toBeUndefined();
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    const versions = await client.listOpenAPISpecVersions(spec("changing"));
    expect(versions.items.map((version) => version.id)).toEqual([changed.lastVersion, first.lastVersion]);
    const old = await client.getOpenAPISpecVersionContentById({
      ...spec("changing"),
      versionId: first.lastVersion!,
    });
    expect(Object.values(old.filesystem)[0]).toMatchObject({ info: { title: "Pets" } });
  });

  it("goes pending, then progress while the job runs, then complete", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => {};
    const fetching = new Promise<void>((resolve) => {
      reached = resolve;
    });
    routes.set("/held.yaml", (_, response) => {
      reached();
      void held.then(() => response.end(PETS_YAML));
    });
    const { client, org, spec, test } = await setup();
    const created = await client.createOpenAPISpec({
      organizationId: org,
      body: { slug: "held", source: { url: `${origin}/held.yaml` } },
    });
    expect(created.processingState).toBe("pending");
    const run = test.docsbase.runJobs();
    await fetching;
    expect((await client.getOpenAPISpecBySlug(spec("held"))).processingState).toBe("progress");
    release();
    await run;
    expect(await client.getOpenAPISpecBySlug(spec("held"))).toMatchObject({
      processingState: "complete",
      lastVersion: expect.any(String),
    });
  });
});

it("runs the worked example of docs/openapi-specs.md", async () => {
  const test = await createTestDocsbase({ allowPrivateNetwork: true });
  const { docsbase } = test;
  const owner = await test.createUser("Owner", "owner@example.test");
  const api = new GitBookAPI({
    endpoint: test.endpoint,
    authToken: owner.token,
    serviceBinding: { fetch: test.fetch },
  });
  const { id: org } = await test.as(owner).createOrganization({ body: { title: "Acme" } });
  const exampleOrigin = `${origin}/example`;

  // --- docs/openapi-specs.md, "A worked example" (with `origin` the local server) ---
  const { data: created } = await api.orgs.createOpenApiSpec(org, {
    slug: "pets",
    source: { url: `${exampleOrigin}/openapi.yaml` },
  });
  expect(created.processingState).toBe("pending");
  await docsbase.runJobs();

  const { data: spec } = await api.orgs.getOpenApiSpecBySlug(org, "pets");
  expect(spec.processingState).toBe("complete");
  expect(spec.lastVersion).toEqual(expect.any(String));
  const { data: content } = await api.orgs.getLatestOpenApiSpecVersionContent(org, "pets");
  expect(Object.keys(content.filesystem)).toEqual([
    `${exampleOrigin}/openapi.yaml`,
    `${exampleOrigin}/schemas.yaml`,
  ]);
  expect(content.url).toBe(`${exampleOrigin}/openapi.yaml`);

  await api.orgs.createOrUpdateOpenApiSpecBySlug(org, "pets", {
    source: { url: `${exampleOrigin}/openapi.yaml` },
  });
  await docsbase.runJobs();
  const { data: versions } = await api.orgs.listOpenApiSpecVersions(org, "pets");
  expect(versions.count).toBe(1);

  const { data: published } = await api.orgs.updateOpenApiSpecBySlug(org, "pets", {
    visibility: OpenAPISpecVisibility.Public,
  });
  const response = await docsbase.fetch(new Request(published.urls.published!));
  expect(((await response.json()) as { url: string }).url).toBe(`${exampleOrigin}/openapi.yaml`);
});

describe("OpenAPI processing of two organizations", () => {
  it("processes one organization's spec while another's specs wait on a host that never answers", async () => {
    const waiting: ServerResponse[] = [];
    let twoWaiting: () => void = () => {};
    const two = new Promise<void>((resolve) => (twoWaiting = resolve));
    routes.set("/never.yaml", (_, response) => {
      if (waiting.push(response) === 2) twoWaiting();
    });
    const { test, client, org } = await setup({ outbound: { timeoutMs: 60_000 } });
    const other = test.as(await test.createUser("Bea"));
    const bea = (await other.createOrganization({ body: { title: "Bea's" } })).id;
    for (let n = 1; n <= 6; n++) {
      await client.createOrUpdateOpenAPISpecBySlug({
        organizationId: org,
        specSlug: `never-${n}`,
        body: { source: { url: `${origin}/never.yaml?n=${n}` } },
      });
    }
    const small = { organizationId: bea, specSlug: "small" };
    await other.createOrUpdateOpenAPISpecBySlug({ ...small, body: { source: { text: PETS_YAML } } });

    // Four drains, as an instance runs. Before queues, all four took Acme's specs, queued first,
    // and Bea's waited until one of Acme's fetches failed. Now Acme holds two drains at most: the
    // other two run Bea's spec and end, with Acme's two fetches still waiting.
    const drains = [1, 2, 3, 4].map(() => test.docsbase.runJobs());
    const ended = await firstResolved(drains, 2);
    await two;
    expect(ended.reduce((sum, ran) => sum + ran, 0)).toBe(1);
    expect(waiting).toHaveLength(2);
    expect(await other.getOpenAPISpecBySlug(small)).toMatchObject({ processingState: "complete" });
    expect((await other.getOpenAPISpecBySlug(small)).lastVersion).toBeDefined();

    routes.set("/never.yaml", (_, response) => response.end(PETS_YAML));
    for (const response of waiting) response.end(PETS_YAML);
    await Promise.all(drains);
  });
});
