import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { openAPISpecsTable, openAPISpecVersionsTable } from "./tables.js";

const DOC = `openapi: 3.1.0
info: { title: Pets, version: "1" }
paths: {}
`;

/** Specs: role rules, limits, the create and update statuses, visibility and the published link. */
describe("OpenAPI specs", () => {
  async function setup() {
    const w = await createWorkspace();
    const specs = `/orgs/${w.org}/openapi`;
    const run = () => w.test.docsbase.runJobs();
    return { ...w, specs, run };
  }

  it("creates with 201 and a Location, refuses a taken slug with 409, and PUTs 201 then 200", async () => {
    const w = await setup();
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
    const taken = await w.api("POST", w.specs, { slug: "pets", source: { text: DOC } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("body.slug");

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

    const listed = (await w.api("GET", w.specs)).body;
    expect(listed.items.map((spec: any) => spec.slug)).toEqual(["pets", "other"]);
  });

  it("enforces the slug and source limits, naming the field", async () => {
    const w = await setup();
    const source = { text: DOC };
    expect((await w.api("POST", w.specs, { slug: "a".repeat(100), source })).status).toBe(201);
    const long = await w.api("POST", w.specs, { slug: "b".repeat(101), source });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain("body.slug");
    for (const slug of ["", "with space", "double--dash", "-lead", "trail-", "ünï"]) {
      const refused = await w.api("POST", w.specs, { slug, source });
      expect(refused.status, slug).toBe(400);
      expect(refused.body.error.message, slug).toContain("body.slug");
    }
    expect((await w.api("PUT", `${w.specs}/${"c".repeat(101)}`, { source })).status).toBe(400);
    expect((await w.api("PUT", `${w.specs}/bad--slug`, { source })).status).toBe(400);

    const url = (length: number) => `https://example.com/${"u".repeat(length - 20)}`;
    expect(url(2048)).toHaveLength(2048);
    expect((await w.api("POST", w.specs, { slug: "url-ok", source: { url: url(2048) } })).status).toBe(201);
    const tooLong = await w.api("POST", w.specs, { slug: "url-long", source: { url: url(2049) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toContain("body.source.url");
    for (const bad of [{}, { url: "https://example.com/", text: DOC }, { text: "" }, { url: "ftp://x/y" }]) {
      const refused = await w.api("POST", w.specs, { slug: "bad-source", source: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.error.message).toContain("body.source");
    }
    expect((await w.api("PATCH", `${w.specs}/url-ok`, { visibility: "everyone" })).status).toBe(400);
    expect((await w.api("GET", `${w.specs}`)).body.count).toBe(2);
  });

  it("lets read members read, admins manage, and hides specs from guests and non-members", async () => {
    const w = await setup();
    await w.api("POST", w.specs, { slug: "pets", source: { text: DOC } });
    await w.run();
    const version = (await w.api("GET", `${w.specs}/pets`)).body.lastVersion as string;
    expect(version).toEqual(expect.any(String));
    const reads = [
      w.specs,
      `${w.specs}/pets`,
      `${w.specs}/pets/versions`,
      `${w.specs}/pets/versions/latest`,
      `${w.specs}/pets/versions/latest/content`,
      `${w.specs}/pets/versions/${version}`,
      `${w.specs}/pets/versions/${version}/content`,
    ];
    const writes: [string, string, unknown][] = [
      ["POST", w.specs, { slug: "mine", source: { text: DOC } }],
      ["PUT", `${w.specs}/pets`, { source: { text: DOC } }],
      ["PATCH", `${w.specs}/pets`, { visibility: "public" }],
      ["DELETE", `${w.specs}/pets`, undefined],
    ];
    for (const role of ["read", "edit", "create"] as const) {
      const member = await w.member(role);
      for (const path of reads) expect((await member("GET", path)).status, `${role} GET ${path}`).toBe(200);
      expect((await member("GET", `${w.specs}/pets`)).body.permissions).toEqual({ view: true, edit: false });
      for (const [method, path, body] of writes) {
        expect((await member(method, path, body)).status, `${role} ${method} ${path}`).toBe(403);
      }
    }
    for (const stranger of [await w.member(null), w.outsider]) {
      for (const path of reads) expect((await stranger("GET", path)).status, path).toBe(404);
      for (const [method, path, body] of writes)
        expect((await stranger(method, path, body)).status).toBe(404);
    }
    expect((await w.api("GET", `${w.specs}/pets`)).body.processingState).toBe("complete");
  });

  it("publishes a public spec's latest content at urls.published, readable without a token", async () => {
    const w = await setup();
    await w.api("POST", w.specs, { slug: "pets", source: { text: DOC } });
    const published = `http://docsbase.test/v1/openapi/${w.org}/pets`;
    const anonymous = () => w.test.request("GET", `/openapi/${w.org}/pets`, { token: null });
    expect((await w.api("GET", `${w.specs}/pets`)).body.urls.published).toBeUndefined();
    expect((await anonymous()).status).toBe(404);
    const patched = await w.api("PATCH", `${w.specs}/pets`, { visibility: "public" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ visibility: "public", urls: { published } });
    // Public, but nothing processed yet.
    expect((await anonymous()).status).toBe(404);
    await w.run();
    const read = await anonymous();
    expect(read.status).toBe(200);
    expect(read.body).toEqual((await w.api("GET", `${w.specs}/pets/versions/latest/content`)).body);
    await w.api("PATCH", `${w.specs}/pets`, { visibility: "private" });
    expect((await anonymous()).status).toBe(404);
  });

  it("answers 404 for unknown specs and versions, and deletes a spec with its versions (205, then 204)", async () => {
    const w = await setup();
    expect((await w.api("GET", `${w.specs}/nope`)).status).toBe(404);
    expect((await w.api("PATCH", `${w.specs}/nope`, { visibility: "public" })).status).toBe(404);
    const spec = (await w.api("POST", w.specs, { slug: "pets", source: { text: DOC } })).body;
    expect((await w.api("GET", `${w.specs}/pets/versions/latest`)).status).toBe(404);
    expect((await w.api("GET", `${w.specs}/pets/versions/latest/content`)).status).toBe(404);
    await w.run();
    const version = (await w.api("GET", `${w.specs}/pets`)).body.lastVersion;
    expect((await w.api("GET", `${w.specs}/pets/versions/unknown`)).status).toBe(404);
    expect((await w.api("GET", `${w.specs}/pets/versions/unknown/content`)).status).toBe(404);
    // A version of another spec is not found through this one.
    await w.api("POST", w.specs, { slug: "other", source: { text: DOC } });
    expect((await w.api("GET", `${w.specs}/other/versions/${version}`)).status).toBe(404);

    expect((await w.api("DELETE", `${w.specs}/pets`)).status).toBe(205);
    expect((await w.api("DELETE", `${w.specs}/pets`)).status).toBe(204);
    expect(await w.stored(openAPISpecsTable, spec.id)).toBeUndefined();
    expect(await w.stored(openAPISpecVersionsTable, version)).toBeUndefined();
    // The slug is free again.
    expect((await w.api("POST", w.specs, { slug: "pets", source: { text: DOC } })).status).toBe(201);
  });

  it("drops the outcome of a processing overtaken by a newer source", async () => {
    const w = await setup();
    await w.api("POST", w.specs, { slug: "pets", source: { text: DOC } });
    await w.api("PUT", `${w.specs}/pets`, { source: { text: "not: [valid" } });
    await w.run();
    const spec = (await w.api("GET", `${w.specs}/pets`)).body;
    expect(spec).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR" });
    expect(spec.lastVersion).toBeUndefined();
  });
});
