import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";

const PNG = btoa("not really a png");

async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const template = await workspace.space({ title: "Template" });
  const target = await workspace.space({ title: "Target" });
  const upload = (spaceId: string, name: string) =>
    client.uploadFile({ spaceId, body: { name, contentType: "image/png", data: PNG } });
  const logo = await upload(template, "logo.png");
  const extra = await upload(template, "extra.png");
  const path = new URL(logo.downloadURL).pathname.replace(/^\/v1/, "");
  const intro = await client.createPage({
    spaceId: template,
    body: { title: "Intro", markdown: `Logo ${logo.id}: ![](http://docsbase.test/v1${path})` },
  });
  await client.createPage({
    spaceId: template,
    body: { title: "Setup", parent: intro.id, markdown: "steps" },
  });
  await client.createPage({ spaceId: template, body: { title: "FAQ" } });
  await client.createPage({ spaceId: target, body: { title: "Intro", markdown: "existing" } });
  /** The page tree of a space's content, or of one of its change requests. */
  const pages = async (spaceId: string, changeRequestId?: string) =>
    (changeRequestId === undefined
      ? await client.listPages({ spaceId })
      : await client.listPagesInChangeRequest({ spaceId, changeRequestId })
    ).pages;
  return { ...workspace, template, target, upload, logo, extra, intro, pages };
}

describe("templates", () => {
  it("copies a template's pages after the target's root pages, sharing its files", async () => {
    const { api, client, template, target, logo, extra, intro, pages, stored } = await setup();
    // Over HTTP for its 201, empty body and Location.
    const applied = await api("POST", `/spaces/${target}/content/template`, { id: template });
    expect(applied.status).toBe(201);
    expect(applied.body).toBeUndefined();
    expect(applied.headers.get("location")).toBe(`http://docsbase.test/v1/spaces/${target}/content`);
    const tree = await pages(target);
    expect(tree.map((page) => [page.title, page.slug])).toEqual([
      ["Intro", "intro"],
      ["Intro", "intro-2"],
      ["FAQ", "faq"],
    ]);
    const copy = tree[1]!;
    expect(copy.id).not.toBe(intro.id);
    expect(copy.markdown).toBe(intro.markdown);
    expect(copy.pages.map((page) => [page.title, page.path])).toEqual([["Setup", "intro-2/setup"]]);
    const files = await client.listFiles({ spaceId: target });
    expect(files.items.map((file) => [file.id, file.downloadURL])).toEqual([
      [extra.id, extra.downloadURL],
      [logo.id, logo.downloadURL],
    ]);
    // The template is unchanged; the copies are new pages.
    expect((await pages(template)).map((page) => page.id)).toContain(intro.id);
    expect(await stored("spaces", template)).toMatchObject({ title: "Template" });
  });

  it("replaces template files named in contentRefs with files of the target", async () => {
    const { client, template, target, upload, logo, pages } = await setup();
    const brand = await upload(target, "brand.png");
    await client.applyTemplateToSpace({
      spaceId: target,
      body: {
        id: template,
        params: { contentRefs: { "logo.png": { kind: "file", file: brand.id, space: target } } },
      },
    });
    const copy = (await pages(target))[1]!;
    const brandPath = new URL(brand.downloadURL).pathname;
    expect(copy.markdown).toBe(`Logo ${brand.id}: ![](http://docsbase.test${brandPath})`);
    const files = await client.listFiles({ spaceId: target });
    expect(files.items.map((file) => file.name)).toEqual(["brand.png", "extra.png"]);
    expect(files.items.some((file) => file.id === logo.id)).toBe(false);
  });

  it("applies a template inside a change request, or when creating one", async () => {
    const { api, client, template, target, pages } = await setup();
    const space = await client.getSpaceById({ spaceId: target });
    const cr = await client.createChangeRequest({ spaceId: target, body: {} });
    // Over HTTP for its 201 and Location.
    const applied = await api("POST", `/spaces/${target}/content/template`, {
      id: template,
      changeRequestId: "1",
    });
    expect(applied.status).toBe(201);
    expect(applied.headers.get("location")).toBe(
      `http://docsbase.test/v1/spaces/${target}/change-requests/${cr.id}/content`,
    );
    expect(await pages(target, cr.id)).toHaveLength(3);
    expect(await pages(target)).toHaveLength(1);
    expect((await client.getSpaceById({ spaceId: target })).revision).toBe(space.revision);

    const created = await client.createChangeRequest({
      spaceId: target,
      body: { subject: "From template", template: { id: template } },
    });
    expect(created.revisionInitial).toBe(space.revision);
    expect(created.revision).not.toBe(space.revision);
    expect((await pages(target, created.id)).map((page) => page.slug)).toEqual(["intro", "intro-2", "faq"]);
    expect((await client.mergeChangeRequest({ spaceId: target, changeRequestId: created.id })).result).toBe(
      "merge",
    );
    expect(await pages(target)).toHaveLength(3);
  });

  it("answers 400 naming the field for what does not resolve", async () => {
    const { api, client, template, target, outsider } = await setup();
    type Body = ClientInput<Operations["applyTemplateToSpace"]>["body"];
    const apply = (body: Body) => client.applyTemplateToSpace({ spaceId: target, body });
    const refused = (call: Promise<unknown>, field: RegExp) =>
      expect(call).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(field) });
    /** Over HTTP, for bodies that no client type allows. */
    const applyOverHttp = async (body: object) =>
      (await api("POST", `/spaces/${target}/content/template`, body)).body;
    const foreignOrg = (await outsider.client.createOrganization({ body: { title: "Elsewhere" } })).id;
    const foreign = (await outsider.client.createSpace({ organizationId: foreignOrg, body: {} })).id;
    await refused(apply({ id: "nope" }), /^body\.id: /);
    await refused(apply({ id: foreign }), /^body\.id: /);
    expect((await applyOverHttp({})).error.message).toMatch(/^body\.id: /);
    type Refs = NonNullable<NonNullable<Body["params"]>["contentRefs"]>;
    const refs = (contentRefs: Refs) => apply({ id: template, params: { contentRefs } });
    await refused(
      refs({ "missing.png": { kind: "file", file: "x" } }),
      /^body\.params\.contentRefs\.missing\.png: /,
    );
    await refused(
      refs({ "logo.png": { kind: "file", file: "x" } }),
      /^body\.params\.contentRefs\.logo\.png\.file: /,
    );
    expect(
      (
        await applyOverHttp({
          id: template,
          params: { contentRefs: { "logo.png": { kind: "url", url: "https://x" } } },
        })
      ).error.message,
    ).toMatch(/^body\.params\.contentRefs\.logo\.png\.kind: /);
    await refused(apply({ id: template, changeRequestId: "7" }), /^body\.changeRequestId: /);
    await refused(
      client.createChangeRequest({ spaceId: target, body: { template: { id: "nope" } } }),
      /^body\.template\.id: /,
    );
    expect((await client.listChangeRequestsForSpace({ spaceId: target, status: "open" })).count).toBe(0);
  });

  it("needs edit on the target", async () => {
    const { template, target, member, outsider, client } = await setup();
    const reader = await member("read");
    const apply = (as: typeof client) => as.applyTemplateToSpace({ spaceId: target, body: { id: template } });
    await expect(apply(reader.client)).rejects.toMatchObject({ code: "forbidden" });
    await expect(apply(outsider.client)).rejects.toMatchObject({ code: "not_found" });
    await client.updateSpaceById({ spaceId: target, body: { editMode: "locked" } });
    await expect(apply(client)).rejects.toMatchObject({ code: "forbidden" });
  });
});
