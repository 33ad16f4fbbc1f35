import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { openAPISpecsTable, openAPISpecVersionsTable } from "./tables.js";

type OpenAPISpecSource = ClientInput<Operations["createOpenAPISpec"]>["body"]["source"];
type OpenAPISpecVisibility = ClientInput<Operations["updateOpenAPISpecBySlug"]>["body"]["visibility"];

const DOC = `openapi: 3.1.0
info: { title: Pets, version: "1" }
paths: {}
`;

/** Specs: role rules, limits, the create and update statuses, visibility and the published link. */
describe("OpenAPI specs", () => {
  async function setup() {
    const w = await createWorkspace();
    const specs = `/orgs/${w.org}/openapi`;
    const organizationId = w.org;
    const pets = { organizationId, specSlug: "pets" };
    const create = (slug: string, source: OpenAPISpecSource = { text: DOC }, client: TestClient = w.client) =>
      client.createOpenAPISpec({ organizationId, body: { slug, source } });
    const run = () => w.test.docsbase.runJobs();
    return { ...w, specs, organizationId, pets, create, run };
  }

  it("creates with 201 and a Location, refuses a taken slug with 409, and PUTs 201 then 200", async () => {
    const w = await setup();
    // Over HTTP: the 201 and its Location header.
    const created = await w.api("POST", w.specs, { slug: "pets", source: { text: DOC } });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`http://docsbase.test/v1/orgs/${w.org}/openapi/pets`);
    expect(created.body).toMatchObject({
      object: "openapi-spec",
      slug: "pets",
      processingState: "pending",
      visibility: "private",
      permissions: { view: true, edit: true },
      urls: { location: `http://docsbase.test/v1/orgs/${w.org}/openapi/pets` },
    });
    await expect(w.create("pets")).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("body.slug"),
    });

    // Over HTTP: PUT answers 201 with a Location when it creates, 200 when it replaces.
    w.advance(1000);
    const put = await w.api("PUT", `${w.specs}/other`, { source: { url: "https://example.com/a.yaml" } });
    expect(put.status).toBe(201);
    expect(put.headers.get("location")).toBe(`http://docsbase.test/v1/orgs/${w.org}/openapi/other`);
    expect(put.body.sourceURL).toBe("https://example.com/a.yaml");
    w.advance(1000);
    const replaced = await w.api("PUT", `${w.specs}/other`, { source: { text: DOC } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: put.body.id, processingState: "pending" });
    expect(replaced.body.sourceURL).toBeUndefined();
    expect(replaced.body.updatedAt).not.toBe(put.body.updatedAt);

    const listed = await w.client.listOpenAPISpecs({ organizationId: w.organizationId });
    expect(listed.items.map((spec) => spec.slug)).toEqual(["pets", "other"]);
  });

  it("enforces the slug and source limits, naming the field", async () => {
    const w = await setup();
    const { organizationId } = w;
    const source = { text: DOC };
    await w.create("a".repeat(100), source);
    await expect(w.create("b".repeat(101), source)).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("body.slug"),
    });
    for (const slug of ["", "with space", "double--dash", "-lead", "trail-", "ünï"]) {
      await expect(w.create(slug, source), slug).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringContaining("body.slug"),
      });
    }
    for (const specSlug of ["c".repeat(101), "bad--slug"]) {
      await expect(
        w.client.createOrUpdateOpenAPISpecBySlug({ organizationId, specSlug, body: { source } }),
        specSlug,
      ).rejects.toMatchObject({ code: "bad_request" });
    }

    const url = (length: number) => `https://example.com/${"u".repeat(length - 20)}`;
    expect(url(2048)).toHaveLength(2048);
    await w.create("url-ok", { url: url(2048) });
    await expect(w.create("url-long", { url: url(2049) })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("body.source.url"),
    });
    for (const bad of [{}, { url: "https://example.com/", text: DOC }, { text: "" }, { url: "ftp://x/y" }]) {
      await expect(w.create("bad-source", bad), JSON.stringify(bad)).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringContaining("body.source"),
      });
    }
    // A visibility no client type allows: cast, for its refusal.
    await expect(
      w.client.updateOpenAPISpecBySlug({
        organizationId,
        specSlug: "url-ok",
        body: { visibility: "everyone" as OpenAPISpecVisibility },
      }),
    ).rejects.toMatchObject({ code: "bad_request" });
    expect((await w.client.listOpenAPISpecs({ organizationId })).count).toBe(2);
  });

  it("lets read members read, admins manage, and hides specs from guests and non-members", async () => {
    const w = await setup();
    const { organizationId, pets } = w;
    await w.create("pets");
    await w.run();
    const version = (await w.client.getOpenAPISpecBySlug(pets)).lastVersion!;
    expect(version).toEqual(expect.any(String));
    const versionId = version;
    const reads: [string, (client: TestClient) => Promise<unknown>][] = [
      ["listOpenAPISpecs", (client) => client.listOpenAPISpecs({ organizationId })],
      ["getOpenAPISpecBySlug", (client) => client.getOpenAPISpecBySlug(pets)],
      ["listOpenAPISpecVersions", (client) => client.listOpenAPISpecVersions(pets)],
      ["getLatestOpenAPISpecVersion", (client) => client.getLatestOpenAPISpecVersion(pets)],
      ["getLatestOpenAPISpecVersionContent", (client) => client.getLatestOpenAPISpecVersionContent(pets)],
      ["getOpenAPISpecVersionById", (client) => client.getOpenAPISpecVersionById({ ...pets, versionId })],
      [
        "getOpenAPISpecVersionContentById",
        (client) => client.getOpenAPISpecVersionContentById({ ...pets, versionId }),
      ],
    ];
    const writes: [string, (client: TestClient) => Promise<unknown>][] = [
      ["createOpenAPISpec", (client) => w.create("mine", { text: DOC }, client)],
      [
        "createOrUpdateOpenAPISpecBySlug",
        (client) => client.createOrUpdateOpenAPISpecBySlug({ ...pets, body: { source: { text: DOC } } }),
      ],
      [
        "updateOpenAPISpecBySlug",
        (client) => client.updateOpenAPISpecBySlug({ ...pets, body: { visibility: "public" } }),
      ],
      ["deleteOpenAPISpecBySlug", (client) => client.deleteOpenAPISpecBySlug(pets)],
    ];
    for (const role of ["read", "edit", "create"] as const) {
      const { client } = await w.member(role);
      for (const [name, read] of reads) await expect(read(client), `${role} ${name}`).resolves.toBeDefined();
      expect((await client.getOpenAPISpecBySlug(pets)).permissions).toEqual({ view: true, edit: false });
      for (const [name, write] of writes) {
        await expect(write(client), `${role} ${name}`).rejects.toMatchObject({ code: "forbidden" });
      }
    }
    for (const { client } of [await w.member(null), w.outsider]) {
      for (const [name, read] of reads) {
        await expect(read(client), name).rejects.toMatchObject({ code: "not_found" });
      }
      for (const [name, write] of writes) {
        await expect(write(client), name).rejects.toMatchObject({ code: "not_found" });
      }
    }
    expect((await w.client.getOpenAPISpecBySlug(pets)).processingState).toBe("complete");
  });

  it("publishes a public spec's latest content at urls.published, readable without a token", async () => {
    const w = await setup();
    const { pets } = w;
    await w.create("pets");
    const published = `http://docsbase.test/v1/openapi/${w.org}/pets`;
    // Over HTTP: without a token.
    const anonymous = () => w.test.request("GET", `/openapi/${w.org}/pets`, { token: null });
    expect((await w.client.getOpenAPISpecBySlug(pets)).urls.published).toBeUndefined();
    expect((await anonymous()).status).toBe(404);
    const patched = await w.client.updateOpenAPISpecBySlug({ ...pets, body: { visibility: "public" } });
    expect(patched).toMatchObject({ visibility: "public", urls: { published } });
    // Public, but nothing processed yet.
    expect((await anonymous()).status).toBe(404);
    await w.run();
    const read = await anonymous();
    expect(read.status).toBe(200);
    expect(read.body).toEqual(await w.client.getLatestOpenAPISpecVersionContent(pets));
    await w.client.updateOpenAPISpecBySlug({ ...pets, body: { visibility: "private" } });
    expect((await anonymous()).status).toBe(404);
  });

  it("answers 404 for unknown specs and versions, and deletes a spec with its versions (205, then 204)", async () => {
    const w = await setup();
    const { client, organizationId, pets } = w;
    const notFound = { code: "not_found" };
    const nope = { organizationId, specSlug: "nope" };
    await expect(client.getOpenAPISpecBySlug(nope)).rejects.toMatchObject(notFound);
    await expect(
      client.updateOpenAPISpecBySlug({ ...nope, body: { visibility: "public" } }),
    ).rejects.toMatchObject(notFound);
    const spec = await w.create("pets");
    await expect(client.getLatestOpenAPISpecVersion(pets)).rejects.toMatchObject(notFound);
    await expect(client.getLatestOpenAPISpecVersionContent(pets)).rejects.toMatchObject(notFound);
    await w.run();
    const version = (await client.getOpenAPISpecBySlug(pets)).lastVersion!;
    const unknown = { ...pets, versionId: "unknown" };
    await expect(client.getOpenAPISpecVersionById(unknown)).rejects.toMatchObject(notFound);
    await expect(client.getOpenAPISpecVersionContentById(unknown)).rejects.toMatchObject(notFound);
    // A version of another spec is not found through this one.
    await w.create("other");
    await expect(
      client.getOpenAPISpecVersionById({ organizationId, specSlug: "other", versionId: version }),
    ).rejects.toMatchObject(notFound);

    // Over HTTP: the delete's 205, then 204.
    expect((await w.api("DELETE", `${w.specs}/pets`)).status).toBe(205);
    expect((await w.api("DELETE", `${w.specs}/pets`)).status).toBe(204);
    expect(await w.stored(openAPISpecsTable, spec.id)).toBeUndefined();
    expect(await w.stored(openAPISpecVersionsTable, version)).toBeUndefined();
    // The slug is free again.
    await w.create("pets");
  });

  it("drops the outcome of a processing overtaken by a newer source", async () => {
    const w = await setup();
    const { pets } = w;
    await w.create("pets");
    await w.client.createOrUpdateOpenAPISpecBySlug({ ...pets, body: { source: { text: "not: [valid" } } });
    await w.run();
    const spec = await w.client.getOpenAPISpecBySlug(pets);
    expect(spec).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR" });
    expect(spec.lastVersion).toBeUndefined();
  });
});
