import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

const DOC = (title: string) => `openapi: 3.1.0
info:
  title: ${title}
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        "200":
          description: The pets
`;

describe.each(STORAGE_KINDS)("conformance: OpenAPI specs (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.openapi_specs);
    h.expectConformant();
    await h.close();
  });

  it("creates, processes, versions, publishes and deletes specs", async () => {
    const user = await h.test.createUser("Owner", `owner-${kind}@openapi.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Acme" } })).id;

    const {
      data: created,
      status,
      headers,
    } = await api.orgs.createOpenApiSpec(org, {
      slug: "pets",
      source: { text: DOC("Pets") },
    });
    expect(status).toBe(201);
    expect(headers.get("location")).toBe(`${h.test.endpoint}/v1/orgs/${org}/openapi/pets`);
    expect(created).toMatchObject({ object: "openapi-spec", slug: "pets", processingState: "pending" });
    expect(
      await statusOf(api.orgs.createOpenApiSpec(org, { slug: "pets", source: { text: DOC("X") } })),
    ).toBe(409);
    await h.test.docsbase.runJobs();

    const { data: spec } = await api.orgs.getOpenApiSpecBySlug(org, "pets");
    expect(spec).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
    const { data: latest } = await api.orgs.getLatestOpenApiSpecVersion(org, "pets");
    expect(latest.id).toBe(spec.lastVersion);
    const { data: content } = await api.orgs.getLatestOpenApiSpecVersionContent(org, "pets");
    expect(content.url).toBe(latest.url);
    expect((content.filesystem as Record<string, unknown>)[content.url]).toMatchObject({ openapi: "3.1.0" });

    const put = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, "pets", {
      source: { text: DOC("Pets 2") },
    });
    expect(put.status).toBe(200);
    // A loopback URL, which the outbound guard refuses (no private-network opt-in here).
    const refused = "http://127.0.0.1:9/openapi.yaml";
    const fresh = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, "petstore", {
      source: { url: refused },
    });
    expect(fresh.status).toBe(201);
    expect(fresh.data.sourceURL).toBe(refused);
    await h.test.docsbase.runJobs();

    const { data: versions } = await api.orgs.listOpenApiSpecVersions(org, "pets");
    expect(versions.count).toBe(2);
    const [newest, oldest] = versions.items;
    expect(newest!.id).not.toBe(latest.id);
    expect(oldest!.id).toBe(latest.id);
    const { data: byId } = await api.orgs.getOpenApiSpecVersionById(org, "pets", latest.id);
    expect(byId.id).toBe(latest.id);
    const { data: oldContent } = await api.orgs.getOpenApiSpecVersionContentById(org, "pets", latest.id);
    expect(oldContent).toEqual(content);
    expect(await statusOf(api.orgs.getOpenApiSpecVersionById(org, "pets", "unknown"))).toBe(404);

    const { data: listed } = await api.orgs.listOpenApiSpecs(org);
    expect(listed.items.map((item) => item.slug).sort()).toEqual(["pets", "petstore"]);
    const { data: failed } = await api.orgs.getOpenApiSpecBySlug(org, "petstore");
    expect(failed.processingState).toBe("complete");
    expect(failed.lastProcessErrorCode).toBe("FETCH_ERROR");

    const { data: published } = await api.orgs.updateOpenApiSpecBySlug(org, "pets", {
      visibility: "public" as never,
    });
    expect(published.urls.published).toBe(`${h.test.endpoint}/v1/openapi/${org}/pets`);
    const anonymous = await h.test.request("GET", `/openapi/${org}/pets`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.url).toBe(newest!.url);

    expect((await api.orgs.deleteOpenApiSpecBySlug(org, "pets")).status).toBe(205);
    expect((await api.orgs.deleteOpenApiSpecBySlug(org, "pets")).status).toBe(204);
    expect(await statusOf(api.orgs.getOpenApiSpecBySlug(org, "pets"))).toBe(404);
    const outsider = h.client((await h.test.createUser("Outsider", `out-${kind}@openapi.test`)).token);
    expect(await statusOf(outsider.orgs.listOpenApiSpecs(org))).toBe(404);
  });
});
