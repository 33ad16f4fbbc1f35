import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

const PNG = btoa("not really a png");

async function setup() {
  const workspace = await createWorkspace();
  const { api } = workspace;
  const template = await workspace.space({ title: "Template" });
  const target = await workspace.space({ title: "Target" });
  const upload = async (space: string, name: string) =>
    (await api("POST", `/spaces/${space}/content/files`, { name, contentType: "image/png", data: PNG })).body;
  const logo = await upload(template, "logo.png");
  const extra = await upload(template, "extra.png");
  const path = new URL(logo.downloadURL).pathname.replace(/^\/v1/, "");
  const intro = (
    await api("POST", `/spaces/${template}/content/pages`, {
      title: "Intro",
      markdown: `Logo ${logo.id}: ![](http://docsbase.test/v1${path})`,
    })
  ).body;
  await api("POST", `/spaces/${template}/content/pages`, {
    title: "Setup",
    parent: intro.id,
    markdown: "steps",
  });
  await api("POST", `/spaces/${template}/content/pages`, { title: "FAQ" });
  await api("POST", `/spaces/${target}/content/pages`, { title: "Intro", markdown: "existing" });
  const pages = async (url: string) => (await api("GET", `${url}/pages`)).body.pages;
  return { ...workspace, template, target, upload, logo, extra, intro, pages };
}

describe("templates", () => {
  it("copies a template's pages after the target's root pages, sharing its files", async () => {
    const { api, template, target, logo, extra, intro, pages, stored } = await setup();
    const applied = await api("POST", `/spaces/${target}/content/template`, { id: template });
    expect(applied.status).toBe(201);
    expect(applied.body).toBeUndefined();
    expect(applied.headers.get("location")).toBe(`http://docsbase.test/v1/spaces/${target}/content`);
    const tree = await pages(`/spaces/${target}/content`);
    expect(tree.map((page: any) => [page.title, page.slug])).toEqual([
      ["Intro", "intro"],
      ["Intro", "intro-2"],
      ["FAQ", "faq"],
    ]);
    const copy = tree[1];
    expect(copy.id).not.toBe(intro.id);
    expect(copy.markdown).toBe(intro.markdown);
    expect(copy.pages.map((page: any) => [page.title, page.path])).toEqual([["Setup", "intro-2/setup"]]);
    const { body: files } = await api("GET", `/spaces/${target}/content/files`);
    expect(files.items.map((file: any) => [file.id, file.downloadURL])).toEqual([
      [extra.id, extra.downloadURL],
      [logo.id, logo.downloadURL],
    ]);
    // The template is unchanged; the copies are new pages.
    expect((await pages(`/spaces/${template}/content`)).map((page: any) => page.id)).toContain(intro.id);
    expect(await stored("spaces", template)).toMatchObject({ title: "Template" });
  });

  it("replaces template files named in contentRefs with files of the target", async () => {
    const { api, template, target, upload, logo, pages } = await setup();
    const brand = await upload(target, "brand.png");
    const applied = await api("POST", `/spaces/${target}/content/template`, {
      id: template,
      params: { contentRefs: { "logo.png": { kind: "file", file: brand.id, space: target } } },
    });
    expect(applied.status).toBe(201);
    const copy = (await pages(`/spaces/${target}/content`))[1];
    const brandPath = new URL(brand.downloadURL).pathname;
    expect(copy.markdown).toBe(`Logo ${brand.id}: ![](http://docsbase.test${brandPath})`);
    const { body: files } = await api("GET", `/spaces/${target}/content/files`);
    expect(files.items.map((file: any) => file.name)).toEqual(["brand.png", "extra.png"]);
    expect(files.items.some((file: any) => file.id === logo.id)).toBe(false);
  });

  it("applies a template inside a change request, or when creating one", async () => {
    const { api, template, target, pages } = await setup();
    const { body: space } = await api("GET", `/spaces/${target}`);
    const cr = (await api("POST", `/spaces/${target}/change-requests`, {})).body;
    const applied = await api("POST", `/spaces/${target}/content/template`, {
      id: template,
      changeRequestId: "1",
    });
    expect(applied.status).toBe(201);
    expect(applied.headers.get("location")).toBe(
      `http://docsbase.test/v1/spaces/${target}/change-requests/${cr.id}/content`,
    );
    const base = `/spaces/${target}/change-requests`;
    expect(await pages(`${base}/${cr.id}/content`)).toHaveLength(3);
    expect(await pages(`/spaces/${target}/content`)).toHaveLength(1);
    expect((await api("GET", `/spaces/${target}`)).body.revision).toBe(space.revision);

    const created = await api("POST", base, { subject: "From template", template: { id: template } });
    expect(created.status).toBe(201);
    expect(created.body.revisionInitial).toBe(space.revision);
    expect(created.body.revision).not.toBe(space.revision);
    expect((await pages(`${base}/${created.body.id}/content`)).map((page: any) => page.slug)).toEqual([
      "intro",
      "intro-2",
      "faq",
    ]);
    expect((await api("POST", `${base}/${created.body.id}/merge`)).body.result).toBe("merge");
    expect(await pages(`/spaces/${target}/content`)).toHaveLength(3);
  });

  it("answers 400 naming the field for what does not resolve", async () => {
    const { api, template, target, outsider } = await setup();
    const apply = async (body: object) =>
      (await api("POST", `/spaces/${target}/content/template`, body)).body;
    const foreignOrg = (await outsider("POST", "/orgs", { title: "Elsewhere" })).body.id;
    const foreign = (await outsider("POST", `/orgs/${foreignOrg}/spaces`, {})).body.id;
    expect((await apply({ id: "nope" })).error).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^body\.id: /),
    });
    expect((await apply({ id: foreign })).error.message).toMatch(/^body\.id: /);
    expect((await apply({})).error.message).toMatch(/^body\.id: /);
    const refs = (contentRefs: object) => apply({ id: template, params: { contentRefs } });
    expect((await refs({ "missing.png": { kind: "file", file: "x" } })).error.message).toMatch(
      /^body\.params\.contentRefs\.missing\.png: /,
    );
    expect((await refs({ "logo.png": { kind: "file", file: "x" } })).error.message).toMatch(
      /^body\.params\.contentRefs\.logo\.png\.file: /,
    );
    expect((await refs({ "logo.png": { kind: "url", url: "https://x" } })).error.message).toMatch(
      /^body\.params\.contentRefs\.logo\.png\.kind: /,
    );
    expect((await apply({ id: template, changeRequestId: "7" })).error.message).toMatch(
      /^body\.changeRequestId: /,
    );
    const created = await api("POST", `/spaces/${target}/change-requests`, { template: { id: "nope" } });
    expect(created.body.error.message).toMatch(/^body\.template\.id: /);
    expect((await api("GET", `/spaces/${target}/change-requests?status=open`)).body.count).toBe(0);
  });

  it("needs edit on the target", async () => {
    const { template, target, member, outsider, api } = await setup();
    const reader = await member("read");
    expect((await reader("POST", `/spaces/${target}/content/template`, { id: template })).status).toBe(403);
    expect((await outsider("POST", `/spaces/${target}/content/template`, { id: template })).status).toBe(404);
    await api("PATCH", `/spaces/${target}`, { editMode: "locked" });
    expect((await api("POST", `/spaces/${target}/content/template`, { id: template })).status).toBe(403);
  });
});
