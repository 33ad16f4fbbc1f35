import { describe, expect, it } from "vitest";
import { answerOf, expectRefused, expectRefusedUnchanged } from "../../../test/support/limits.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { siteNodesTable, siteSpacesTable } from "./tables.js";

type SectionCreate = Omit<ClientInput<Operations["addSectionToSite"]>["body"], "spaceId">;
type GroupCreate = ClientInput<Operations["addSectionGroupToSite"]>["body"];
type SiteSpaceQuery = Omit<ClientInput<Operations["listSiteSpaces"]>, "organizationId" | "siteId">;
type SectionPosition = NonNullable<
  NonNullable<ClientInput<Operations["moveSiteSection"]>["body"]>["position"]
>;
type GroupPosition = NonNullable<
  NonNullable<ClientInput<Operations["moveSiteSectionGroup"]>["body"]>["position"]
>;
type SiteSpacePosition = NonNullable<
  NonNullable<ClientInput<Operations["moveSiteSpace"]>["body"]>["position"]
>;
type Sort = ClientInput<Operations["sortSiteStructure"]>["body"];

const DAY = 24 * 60 * 60 * 1000;

/** A workspace with spaces titled `titles` and a site whose site spaces are the first `onSite` of them. */
async function setup(titles = ["Docs", "API", "Guides", "Blog"], onSite = 2) {
  const w = await createWorkspace();
  const spaces: string[] = [];
  for (const title of titles) spaces.push(await w.space({ title }));
  const site = await w.client.createSite({
    organizationId: w.org,
    body: { title: "Handbook", spaces: spaces.slice(0, onSite) },
  });
  const base = `/orgs/${w.org}/sites/${site.id}`;
  /** The site's path parameters, for its typed calls. */
  const at = { organizationId: w.org, siteId: site.id };
  const structure = () => w.client.getSiteStructure(at);
  const sections = () => w.client.listSiteSections(at);
  const groups = () => w.client.listSiteSectionGroups(at);
  const siteSpaces = (query: SiteSpaceQuery = {}) => w.client.listSiteSpaces({ ...at, ...query });
  /** The structure as `[section title, default, [site space title, default]...]`, or site spaces. */
  const outline = async () => {
    const current = await structure();
    type Item = Extract<typeof current, { type: "sections" }>["structure"][number];
    const spacesOf = (list: { title: string; default: boolean }[]) =>
      list.map((one) => `${one.title}${one.default ? "*" : ""}`);
    const walk = (items: Item[]): unknown[] =>
      items.map((item) =>
        item.object === "site-section"
          ? `${item.title}${item.default ? "*" : ""}: ${spacesOf(item.siteSpaces).join(", ")}`
          : { [item.title]: walk(item.children) },
      );
    return current.type === "siteSpaces" ? spacesOf(current.structure) : walk(current.structure);
  };
  const addSection = (space: string, body: SectionCreate = {}) =>
    w.client.addSectionToSite({ ...at, body: { spaceId: space, ...body } });
  const addGroup = (body: GroupCreate) => w.client.addSectionGroupToSite({ ...at, body });
  return {
    ...w,
    spaces,
    site,
    base,
    at,
    structure,
    sections,
    groups,
    siteSpaces,
    outline,
    addSection,
    addGroup,
  };
}

describe("site structure: site spaces and sections", () => {
  it("switches from site spaces to sections with the first section, and back when the last goes", async () => {
    const { api, base, spaces, structure, siteSpaces, outline, addSection, stored } = await setup();
    expect(await outline()).toEqual(["Docs*", "API"]);
    expect((await structure()).type).toBe("siteSpaces");

    // Over HTTP for its 201 and Location header.
    const created = await api("POST", `${base}/sections`, { spaceId: spaces[2] });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toMatch(new RegExp(`${base}/sections/${created.body.id}$`));
    expect(created.body).toMatchObject({
      object: "site-section",
      title: "Guides",
      path: "guides",
      default: true,
    });
    expect((await structure()).type).toBe("sections");
    expect(await outline()).toEqual(["Guides*: Docs*, API, Guides"]);
    expect((await siteSpaces()).items.map((one) => one.section)).toEqual([
      created.body.id,
      created.body.id,
      created.body.id,
    ]);

    const second = await addSection(spaces[3]!, { title: "Blog posts", icon: "pen" });
    expect(second).toMatchObject({ default: false, path: "blog-posts", icon: "pen" });
    expect(await outline()).toEqual(["Guides*: Docs*, API, Guides", "Blog posts: Blog*"]);

    // Deletions over HTTP, for their 205 or 204.
    // Not the last section: its site spaces go with it.
    expect((await api("DELETE", `${base}/sections/${second.id}`)).status).toBe(205);
    expect(await stored(siteNodesTable, second.id)).toBeUndefined();
    expect((await siteSpaces()).count).toBe(3);
    // The last section: its site spaces go back to the root, in order, with their default.
    expect((await api("DELETE", `${base}/sections/${created.body.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/sections/${created.body.id}`)).status).toBe(204);
    expect((await structure()).type).toBe("siteSpaces");
    expect(await outline()).toEqual(["Docs*", "API", "Guides"]);
    expect((await siteSpaces()).items.every((one) => one.section === undefined)).toBe(true);
  });

  it("gives the first section of an empty site its space as default, and never adds a root space twice", async () => {
    const { spaces, outline, addSection } = await setup(["Docs", "API"], 0);
    expect(await outline()).toEqual([]);
    await addSection(spaces[0]!, { title: "Start" });
    expect(await outline()).toEqual(["Start*: Docs*"]);

    const other = await setup(["Docs", "API"], 2);
    await other.addSection(other.spaces[1]!, { title: "Main" });
    expect(await other.outline()).toEqual(["Main*: Docs*, API"]);
  });

  it("promotes the next section and the next site space when the default is deleted", async () => {
    const { api, client, at, base, spaces, siteSpaces, outline, addSection } = await setup(
      ["Docs", "API", "Guides"],
      0,
    );
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    const c = await addSection(spaces[2]!, { title: "Gamma" });
    await client.updateSiteById({ ...at, body: { defaultSiteSection: b.id } });
    expect(await outline()).toEqual(["Alpha: Docs*", "Beta*: API*", "Gamma: Guides*"]);
    // Deletions over HTTP where their 205 or 204 is checked.
    expect((await api("DELETE", `${base}/sections/${b.id}`)).status).toBe(205);
    expect(await outline()).toEqual(["Alpha: Docs*", "Gamma*: Guides*"]);
    expect((await api("DELETE", `${base}/sections/${c.id}`)).status).toBe(205);
    expect(await outline()).toEqual(["Alpha*: Docs*"]);

    const added = [];
    for (const space of spaces.slice(1)) {
      // Over HTTP for its 201 and Location header.
      const answer = await api("POST", `${base}/site-spaces`, { spaceId: space });
      expect(answer.status).toBe(201);
      expect(answer.headers.get("location")).toContain(`${base}/site-spaces/${answer.body.id}`);
      expect(answer.body).toMatchObject({ section: a.id, default: false });
      added.push(answer.body);
    }
    expect(await outline()).toEqual(["Alpha*: Docs*, API, Guides"]);
    const first = (await siteSpaces({ default: true })).items[0]!;
    expect((await api("DELETE", `${base}/site-spaces/${first.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/site-spaces/${first.id}`)).status).toBe(204);
    expect((await api("DELETE", `${base}/site-spaces/missing`)).status).toBe(204);
    expect(await outline()).toEqual(["Alpha*: API*, Guides"]);
    // The default was last: the one before takes the flag.
    await client.updateSiteSectionById({
      ...at,
      siteSectionId: a.id,
      body: { defaultSiteSpace: added[1].id },
    });
    expect(await outline()).toEqual(["Alpha*: API, Guides*"]);
    await client.deleteSiteSpaceById({ ...at, siteSpaceId: added[1].id });
    expect(await outline()).toEqual(["Alpha*: API*"]);
    // An explicit delete keeps the section, even empty.
    await client.deleteSiteSpaceById({ ...at, siteSpaceId: added[0].id });
    expect(await outline()).toEqual(["Alpha*: "]);
  });

  it("adds site spaces to the default section, a named section, or the root", async () => {
    const { client, at, spaces, sections, siteSpaces, outline, addSection } = await setup(
      ["Docs", "API", "Guides", "Blog"],
      1,
    );
    const add = (spaceId: string, sectionId?: string) =>
      client.addSpaceToSite({ ...at, body: { spaceId, ...(sectionId === undefined ? {} : { sectionId }) } });
    const answer = await add(spaces[1]!);
    expect(answer).toMatchObject({ object: "site-space", title: "API", path: "api", default: false });
    expect(answer.section).toBeUndefined();
    await expect(add(spaces[2]!, "nope")).rejects.toMatchObject({ code: "bad_request" });
    const main = await addSection(spaces[2]!, { title: "Main" });
    const other = await addSection(spaces[3]!, { title: "Other" });
    await add(spaces[0]!, other.id);
    await add(spaces[3]!);
    expect(await outline()).toEqual(["Main*: Docs*, API, Guides, Blog", "Other: Blog*, Docs"]);
    expect(main.siteSpaces.map((one) => one.title)).toEqual(["Docs", "API", "Guides"]);

    // Same space twice in a section: the path stays unique.
    expect((await sections()).items[1]!.siteSpaces.map((one) => one.path)).toEqual(["blog", "docs"]);
    const defaults = await siteSpaces({ default: true });
    expect(defaults.items.map((one) => one.title)).toEqual(["Docs", "Blog"]);
    const others = await siteSpaces({ default: false });
    expect(others.items.map((one) => one.title)).toEqual(["API", "Guides", "Blog", "Docs"]);
    const page = await siteSpaces({ limit: 4 });
    expect(page.count).toBe(6);
    const rest = await siteSpaces({ limit: 4, page: page.next!.page });
    expect(rest.items.map((one) => one.title)).toEqual(["Blog", "Docs"]);
    expect(rest.next).toBeUndefined();
    await expect(add("missing")).rejects.toMatchObject({ code: "bad_request" });
  });

  it("updates sections: title, path, default site space, condition, icon and description", async () => {
    const { client, at, spaces, addSection, sections } = await setup(["Docs", "API", "Guides"], 2);
    const main = await addSection(spaces[2]!, { title: "Main" });
    const other = await addSection(spaces[0]!, { title: "Main" });
    expect(other.path).toBe("main-2");
    const [, api2] = main.siteSpaces;
    type Update = ClientInput<Operations["updateSiteSectionById"]>["body"];
    const update = (body: Update, siteSectionId = main.id) =>
      client.updateSiteSectionById({ ...at, siteSectionId, body });
    const updated = await update({
      title: "Primary",
      path: "primary",
      defaultSiteSpace: api2!.id,
      condition: "visitor.claims.plan == 'pro'",
      icon: "star",
      description: "Where to start",
    });
    expect(updated).toMatchObject({
      title: "Primary",
      path: "primary",
      condition: "visitor.claims.plan == 'pro'",
      icon: "star",
      description: "Where to start",
    });
    expect(updated.siteSpaces.map((one) => one.default)).toEqual([false, true, false]);
    // The own path again is fine; another section's is a conflict.
    await update({ path: "primary" });
    await expect(update({ path: "main-2" })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("body.path"),
    });

    const refused = (body: Update) => () => answerOf(update(body));
    await expectRefusedUnchanged(sections, [
      [refused({ title: "Renamed", defaultSiteSpace: other.siteSpaces[0]!.id }), "body.defaultSiteSpace"],
      [refused({ title: "Renamed", condition: "visitor.claims.constructor" }), "body.condition"],
      [refused({ condition: "alert(1)" }), "body.condition"],
      [refused({ condition: "visitor.claims.a ==" }), "body.condition"],
      [refused({ path: "two/segments" }), "body.path"],
    ]);
    await expect(update({ condition: "visitor.claims.__proto__" })).rejects.toMatchObject({
      message: expect.stringMatching(/position \d+/),
    });

    const cleared = await update({ condition: null, icon: null, description: null });
    expect(cleared.condition).toBeUndefined();
    expect(cleared.icon).toBeUndefined();
    expect(cleared.description).toBeUndefined();
    // Omitted fields stay as they are.
    expect(await update({})).toMatchObject({ title: "Primary", path: "primary" });
    await expect(update({ title: "Xx" }, "missing")).rejects.toMatchObject({ code: "not_found" });
  });

  it("updates site spaces: path unique among siblings, condition, space and hidden", async () => {
    const { api, client, at, base, spaces, addSection, siteSpaces } = await setup(
      ["Docs", "API", "Guides"],
      2,
    );
    const [docs, apiSpace] = (await siteSpaces()).items;
    const url = `${base}/site-spaces/${docs!.id}`;
    type Update = ClientInput<Operations["updateSiteSpaceById"]>["body"];
    const update = (body: Update, siteSpaceId = docs!.id) =>
      client.updateSiteSpaceById({ ...at, siteSpaceId, body });
    await expect(update({ path: "api" })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("body.path"),
    });
    const updated = await update({
      path: "start",
      condition: "visitor.claims.unsigned.beta == true",
      spaceId: spaces[2],
      hidden: true,
    });
    expect(updated).toMatchObject({
      path: "start",
      condition: "visitor.claims.unsigned.beta == true",
      title: "Guides",
      hidden: true,
      default: true,
    });
    expect(updated.space.id).toBe(spaces[2]);
    await expectRefusedUnchanged(
      () => siteSpaces(),
      [
        [() => answerOf(update({ path: "other", spaceId: "missing" })), "body.spaceId"],
        [() => answerOf(update({ path: "other", condition: "visitor.claims.a()" })), "body.condition"],
        // Over HTTP: no client type allows a string for hidden.
        [() => api("PATCH", url, { hidden: "yes" }), "body.hidden"],
      ],
    );
    const kept = await update({ hidden: false });
    expect(kept.condition).toBe("visitor.claims.unsigned.beta == true");
    expect((await update({ condition: null })).condition).toBeUndefined();
    // The same path in another section is fine.
    await addSection(spaces[1]!, { title: "Main" });
    const other = await addSection(spaces[0]!, { title: "Other" });
    const inOther = other.siteSpaces[0]!;
    await update({ path: "api" }, inOther.id);
    expect(apiSpace!.path).toBe("api");
    await expect(update({ hidden: true }, "missing")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("site structure: section groups", () => {
  it("adds, nests, updates and deletes groups; sections move in and out", async () => {
    const { api, client, at, base, spaces, outline, addSection, addGroup, sections, groups } = await setup(
      ["A1", "B1", "C1", "D1"],
      0,
    );
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    const c = await addSection(spaces[2]!, { title: "Gamma" });
    const d = await addSection(spaces[3]!, { title: "Delta" });
    const group = await addGroup({ title: "Guides", icon: "book", sections: [c.id, b.id] });
    expect(group).toMatchObject({ object: "site-section-group", title: "Guides", icon: "book" });
    expect(group.children.map((child) => child.title)).toEqual(["Gamma", "Beta"]);
    expect(group.sections.map((child) => child.sectionGroup)).toEqual([group.id, group.id]);
    const inner = await addGroup({ title: "Inner", parent: group.id, sections: [d.id] });
    expect(inner.sectionGroup).toBe(group.id);
    expect(await outline()).toEqual([
      "Alpha*: A1*",
      { Guides: ["Gamma: C1*", "Beta: B1*", { Inner: ["Delta: D1*"] }] },
    ]);
    expect((await groups()).items.map((one) => one.title)).toEqual(["Guides", "Inner"]);
    expect((await sections()).items.map((one) => one.title)).toEqual(["Alpha", "Gamma", "Beta", "Delta"]);

    const renamed = await client.updateSiteSectionGroupById({
      ...at,
      siteSectionGroupId: group.id,
      body: { title: "Manuals", icon: null },
    });
    expect(renamed.title).toBe("Manuals");
    expect(renamed.icon).toBeUndefined();

    // Over HTTP for its 201 and Location header.
    const added = await api("POST", `${base}/section-groups/${inner.id}/sections`, { sectionId: a.id });
    expect(added.status).toBe(201);
    expect(added.headers.get("location")).toContain(`${base}/section-groups/${inner.id}`);
    expect(added.body.children.map((child: any) => child.title)).toEqual(["Delta", "Alpha"]);
    const addTo = (siteSectionGroupId: string, sectionId: string) =>
      client.addSectionToGroup({ ...at, siteSectionGroupId, body: { sectionId } });
    await expect(addTo(inner.id, "x")).rejects.toMatchObject({ code: "bad_request" });
    await expect(addTo("missing", a.id)).rejects.toMatchObject({ code: "not_found" });

    // Deletions over HTTP where their 205 or 204 is checked.
    // Removing: the section goes right after the group, in the group's parent.
    expect((await api("DELETE", `${base}/section-groups/${inner.id}/sections/${d.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/section-groups/${inner.id}/sections/${d.id}`)).status).toBe(204);
    expect(await outline()).toEqual([
      { Manuals: ["Gamma: C1*", "Beta: B1*", { Inner: ["Alpha*: A1*"] }, "Delta: D1*"] },
    ]);

    // Deleting a group: its children take its place in its parent, in order.
    await addTo(inner.id, d.id);
    expect((await api("DELETE", `${base}/section-groups/${inner.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/section-groups/${inner.id}`)).status).toBe(204);
    expect(await outline()).toEqual([{ Manuals: ["Gamma: C1*", "Beta: B1*", "Alpha*: A1*", "Delta: D1*"] }]);
    await client.deleteSiteSectionGroupById({ ...at, siteSectionGroupId: group.id });
    expect(await outline()).toEqual(["Gamma: C1*", "Beta: B1*", "Alpha*: A1*", "Delta: D1*"]);
  });

  it("refuses unknown parents and sections, and sections listed twice, without changing anything", async () => {
    const { api, client, at, base, spaces, addSection, addGroup, structure, groups } = await setup(["A1"], 0);
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const url = `${base}/section-groups`;
    const refused = (body: GroupCreate) => () => answerOf(addGroup(body));
    await expectRefusedUnchanged(
      async () => [await structure(), await groups()],
      [
        [refused({ title: "G", parent: "missing" }), "body.parent"],
        [refused({ title: "G", parent: a.id }), "body.parent"],
        [refused({ title: "G", sections: ["missing"] }), "body.sections[0]"],
        [refused({ title: "G", sections: [a.id, a.id] }), "body.sections[1]"],
      ],
    );
    await expect(
      client.updateSiteSectionGroupById({ ...at, siteSectionGroupId: "missing", body: { title: "G" } }),
    ).rejects.toMatchObject({ code: "not_found" });
    // Over HTTP for its 204.
    expect((await api("DELETE", `${url}/missing`)).status).toBe(204);
  });
});

describe("site structure: order", () => {
  it("moves sections, groups and site spaces within their parent, and refuses anything else", async () => {
    const { client, at, spaces, outline, addSection, addGroup, structure, sections, siteSpaces } =
      await setup(["A1", "B1", "C1", "D1"], 0);
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    const c = await addSection(spaces[2]!, { title: "Gamma" });
    const d = await addSection(spaces[3]!, { title: "Delta" });
    const group = await addGroup({ title: "G", sections: [d.id] });
    const section = (id: string) => ({ type: "site-section" as const, siteSection: id });
    const move = (id: string, position?: SectionPosition) =>
      client.moveSiteSection({ ...at, siteSectionId: id, body: position === undefined ? {} : { position } });

    const moved = await move(c.id, { before: section(a.id) });
    expect(moved).toMatchObject({ object: "site-section", id: c.id });
    expect(await outline()).toEqual(["Gamma: C1*", "Alpha*: A1*", "Beta: B1*", { G: ["Delta: D1*"] }]);
    await move(c.id, { after: section(b.id) });
    expect(await outline()).toEqual(["Alpha*: A1*", "Beta: B1*", "Gamma: C1*", { G: ["Delta: D1*"] }]);
    await move(a.id, { after: section(b.id), before: section(c.id) });
    expect(await outline()).toEqual(["Beta: B1*", "Alpha*: A1*", "Gamma: C1*", { G: ["Delta: D1*"] }]);
    await move(b.id);
    expect(await outline()).toEqual(["Alpha*: A1*", "Gamma: C1*", { G: ["Delta: D1*"] }, "Beta: B1*"]);
    // Already there: nothing changes.
    await move(b.id);
    await move(a.id, { before: section(c.id) });
    expect(await outline()).toEqual(["Alpha*: A1*", "Gamma: C1*", { G: ["Delta: D1*"] }, "Beta: B1*"]);

    const before = await structure();
    for (const [position, field] of [
      [{ before: section(d.id) }, "body.position.before"], // another parent
      [{ before: section("missing") }, "body.position.before"],
      [{ after: section(a.id) }, "body.position.after"], // itself
      [{ after: section(b.id), before: section(c.id) }, "body.position"], // not adjacent in that order
    ] as const) {
      expectRefused(await answerOf(move(a.id, position)), field);
    }
    await expect(move("missing", { before: section(a.id) })).rejects.toMatchObject({ code: "not_found" });
    expect(await structure()).toEqual(before);

    // Groups move among sections and groups of their parent.
    const groupMove = (position: GroupPosition, siteSectionGroupId = group.id) =>
      client.moveSiteSectionGroup({ ...at, siteSectionGroupId, body: { position } });
    const g = await groupMove({ before: { type: "site-section", id: a.id } });
    expect(g).toMatchObject({ object: "site-section-group", id: group.id });
    expect(await outline()).toEqual([{ G: ["Delta: D1*"] }, "Alpha*: A1*", "Gamma: C1*", "Beta: B1*"]);
    expectRefused(
      await answerOf(groupMove({ after: { type: "site-section", id: d.id } })),
      "body.position.after",
    );
    expectRefused(
      await answerOf(groupMove({ after: { type: "site-section-group", id: a.id } })),
      "body.position.after",
    );
    await expect(
      client.moveSiteSectionGroup({ ...at, siteSectionGroupId: "missing", body: {} }),
    ).rejects.toMatchObject({ code: "not_found" });

    // Site spaces move within their section.
    await client.addSpaceToSite({ ...at, body: { spaceId: spaces[1]!, sectionId: a.id } });
    const [one, two] = (await sections()).items.find((item) => item.id === a.id)!.siteSpaces;
    const spaceMove = (id: string, position: SiteSpacePosition) =>
      client.moveSiteSpace({ ...at, siteSpaceId: id, body: { position } });
    const spaceMoved = await spaceMove(two!.id, { before: { type: "site-space", siteSpace: one!.id } });
    expect(spaceMoved).toMatchObject({ object: "site-space", id: two!.id });
    expect(await outline()).toEqual([{ G: ["Delta: D1*"] }, "Alpha*: B1, A1*", "Gamma: C1*", "Beta: B1*"]);
    const elsewhere = (await siteSpaces()).items.find((item) => item.section === c.id)!;
    expectRefused(
      await answerOf(spaceMove(one!.id, { before: { type: "site-space", siteSpace: elsewhere.id } })),
      "body.position.before",
    );
    expectRefused(
      await answerOf(spaceMove(one!.id, { before: { type: "site-space", siteSpace: "nope" } })),
      "body.position.before",
    );
    await expect(
      spaceMove("nope", { before: { type: "site-space", siteSpace: one!.id } }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("sorts the structure with item pointers, answering the moved item", async () => {
    const { api, client, at, base, spaces, outline, addSection, addGroup, siteSpaces } = await setup(
      ["A1", "B1", "C1"],
      2,
    );
    // Site spaces at the root of a site without sections.
    const [first, second] = (await siteSpaces()).items;
    const sort = (item: Sort["item"], position: Sort["position"]) =>
      client.sortSiteStructure({ ...at, body: { item, position } });
    const sorted = await sort(
      { type: "site-space", id: second!.id },
      { before: { type: "site-space", id: first!.id } },
    );
    expect(sorted).toMatchObject({ object: "site-space", id: second!.id });
    expect(await outline()).toEqual(["B1", "A1*"]);

    const a = await addSection(spaces[2]!, { title: "Alpha" });
    const b = await addSection(spaces[0]!, { title: "Beta" });
    const group = await addGroup({ title: "G" });
    const toFront = await sort(
      { type: "site-section-group", id: group.id },
      { before: { type: "site-section", id: a.id } },
    );
    expect(toFront).toMatchObject({ object: "site-section-group", id: group.id });
    const toEnd = await sort({ type: "site-section", id: a.id }, {});
    expect(toEnd).toMatchObject({ object: "site-section", id: a.id });
    expect(await outline()).toEqual([{ G: [] }, "Beta: A1*", "Alpha*: B1, A1*, C1"]);

    expectRefused(
      await answerOf(
        sort({ type: "site-section", id: a.id }, { before: { type: "site-space", id: first!.id } }),
      ),
      "body.position.before",
    );
    expectRefused(
      await answerOf(
        sort({ type: "site-space", id: first!.id }, { after: { type: "site-section", id: b.id } }),
      ),
      "body.position.after",
    );
    expectRefused(
      await answerOf(sort({ type: "site-section", id: a.id }, { after: { type: "site-section", id: a.id } })),
      "body.position.after",
    );
    await expect(sort({ type: "site-section", id: group.id }, {})).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(sort({ type: "site-space", id: "missing" }, {})).rejects.toMatchObject({
      code: "not_found",
    });
    // Over HTTP: no client type allows an item of type "page".
    expectRefused(
      await api("PATCH", `${base}/structure/sort`, { item: { type: "page", id: a.id }, position: {} }),
      "body.item.type",
    );
  });
});

describe("site structure: limits and roles", () => {
  it("accepts every bound and refuses one past it, naming the field", async () => {
    const { api, client, at, base, spaces, addSection, addGroup, structure, groups } = await setup(
      ["Docs", "API"],
      0,
    );
    const section = await addSection(spaces[0]!, { title: "ab", icon: "i".repeat(50) });
    expect(section.title).toBe("ab");
    type SectionUpdate = ClientInput<Operations["updateSiteSectionById"]>["body"];
    type GroupUpdate = ClientInput<Operations["updateSiteSectionGroupById"]>["body"];
    type SiteSpaceUpdate = ClientInput<Operations["updateSiteSpaceById"]>["body"];
    const update = (body: SectionUpdate) =>
      client.updateSiteSectionById({ ...at, siteSectionId: section.id, body });
    const condition = (length: number) => {
      const prefix = 'visitor.claims.a == "';
      return `${prefix}${"x".repeat(length - prefix.length - 1)}"`;
    };
    await update({
      title: "t".repeat(128),
      path: "p".repeat(100),
      description: "d".repeat(256),
      condition: condition(1024),
      icon: "i".repeat(50),
    });
    await update({ path: "p" });
    const group = await addGroup({ title: "g" });
    expect((await addGroup({ title: "g".repeat(100) })).title).toHaveLength(100);
    const siteSpace = section.siteSpaces[0]!;
    const updateSiteSpace = (body: SiteSpaceUpdate) =>
      client.updateSiteSpaceById({ ...at, siteSpaceId: siteSpace.id, body });
    await updateSiteSpace({ path: "s".repeat(100), condition: condition(1024) });

    const refused = (call: () => Promise<unknown>) => () => answerOf(call());
    const updateGroup = (body: GroupUpdate) =>
      client.updateSiteSectionGroupById({ ...at, siteSectionGroupId: group.id, body });
    await expectRefusedUnchanged(
      async () => [await structure(), await groups()],
      [
        [refused(() => update({ title: "t" })), "body.title"],
        [refused(() => update({ title: "t".repeat(129) })), "body.title"],
        [refused(() => update({ path: "" })), "body.path"],
        [refused(() => update({ path: "p".repeat(101) })), "body.path"],
        [refused(() => update({ description: "d".repeat(257) })), "body.description"],
        [refused(() => update({ condition: condition(1025) })), "body.condition"],
        [refused(() => update({ icon: "i".repeat(51) })), "body.icon"],
        [refused(() => addSection(spaces[1]!, { title: "t" })), "body.title"],
        [refused(() => addSection(spaces[1]!, { title: "t".repeat(129) })), "body.title"],
        [refused(() => addSection(spaces[1]!, { icon: "i".repeat(51) })), "body.icon"],
        // Over HTTP: no client type allows a section without a space.
        [() => api("POST", `${base}/sections`, { title: "No space" }), "body.spaceId"],
        [refused(() => addGroup({ title: "" })), "body.title"],
        [refused(() => addGroup({ title: "g".repeat(101) })), "body.title"],
        [refused(() => updateGroup({ title: "g".repeat(101) })), "body.title"],
        [refused(() => updateGroup({ icon: "i".repeat(51) })), "body.icon"],
        [refused(() => updateSiteSpace({ path: "s".repeat(101) })), "body.path"],
        [refused(() => updateSiteSpace({ condition: condition(1025) })), "body.condition"],
      ],
    );
  });

  it("lets read members read, refuses writes to non-admins (403) and hides the site from outsiders (404)", async () => {
    const { client, at, spaces, addSection, addGroup, member, outsider } = await setup(["Docs", "API"], 1);
    const section = await addSection(spaces[1]!, { title: "Main" });
    const group = await addGroup({ title: "G" });
    const siteSpace = section.siteSpaces[0]!;
    const reader = (await member("read")).client;
    const editor = (await member("edit")).client;
    const reads: [string, (as: TestClient) => Promise<unknown>][] = [
      ["listSiteSections", (as) => as.listSiteSections(at)],
      ["listSiteSectionGroups", (as) => as.listSiteSectionGroups(at)],
      ["listSiteSpaces", (as) => as.listSiteSpaces(at)],
      ["getSiteStructure", (as) => as.getSiteStructure(at)],
      ["listSiteSpaces with a shareKey", (as) => as.listSiteSpaces({ ...at, shareKey: "x" })],
    ];
    for (const [name, read] of reads) {
      const answer = await read(reader);
      // The same items as the owner sees (their spaces' permissions differ).
      const ids = (body: unknown) => JSON.stringify(body).match(/"id":"[^"]+"/g);
      expect(ids(answer), name).toEqual(ids(await read(client)));
      await expect(read(outsider.client), name).rejects.toMatchObject({ code: "not_found" });
    }
    const sectionAt = { ...at, siteSectionId: section.id };
    const groupAt = { ...at, siteSectionGroupId: group.id };
    const siteSpaceAt = { ...at, siteSpaceId: siteSpace.id };
    const writes: [string, (as: TestClient) => Promise<unknown>][] = [
      ["addSectionToSite", (as) => as.addSectionToSite({ ...at, body: { spaceId: spaces[0]! } })],
      [
        "updateSiteSectionById",
        (as) => as.updateSiteSectionById({ ...sectionAt, body: { title: "Renamed" } }),
      ],
      ["deleteSiteSectionById", (as) => as.deleteSiteSectionById(sectionAt)],
      ["moveSiteSection", (as) => as.moveSiteSection({ ...sectionAt, body: {} })],
      ["addSectionGroupToSite", (as) => as.addSectionGroupToSite({ ...at, body: { title: "G2" } })],
      [
        "updateSiteSectionGroupById",
        (as) => as.updateSiteSectionGroupById({ ...groupAt, body: { title: "G3" } }),
      ],
      ["deleteSiteSectionGroupById", (as) => as.deleteSiteSectionGroupById(groupAt)],
      ["addSectionToGroup", (as) => as.addSectionToGroup({ ...groupAt, body: { sectionId: section.id } })],
      [
        "removeSectionFromGroup",
        (as) => as.removeSectionFromGroup({ ...groupAt, siteSectionId: section.id }),
      ],
      ["moveSiteSectionGroup", (as) => as.moveSiteSectionGroup({ ...groupAt, body: {} })],
      ["addSpaceToSite", (as) => as.addSpaceToSite({ ...at, body: { spaceId: spaces[0]! } })],
      ["updateSiteSpaceById", (as) => as.updateSiteSpaceById({ ...siteSpaceAt, body: { hidden: true } })],
      ["deleteSiteSpaceById", (as) => as.deleteSiteSpaceById(siteSpaceAt)],
      ["moveSiteSpace", (as) => as.moveSiteSpace({ ...siteSpaceAt, body: {} })],
      [
        "sortSiteStructure",
        (as) =>
          as.sortSiteStructure({
            ...at,
            body: { item: { type: "site-section", id: section.id }, position: {} },
          }),
      ],
    ];
    for (const [name, write] of writes) {
      await expect(write(editor), name).rejects.toMatchObject({ code: "forbidden" });
      await expect(write(reader), name).rejects.toMatchObject({ code: "forbidden" });
      await expect(write(outsider.client), name).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(client.getSiteStructure({ ...at, siteId: "missing" })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("site structure: space deletion", () => {
  it("hides the site spaces of a deleted space, and purging it removes them with a section left empty", async () => {
    const { test, api, client, at, spaces, outline, addSection, siteSpaces, advance, stored } = await setup(
      ["A1", "B1", "C1"],
      0,
    );
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    await client.addSpaceToSite({ ...at, body: { spaceId: spaces[0]!, sectionId: b.id } });
    await client.addSpaceToSite({ ...at, body: { spaceId: spaces[2]!, sectionId: b.id } });
    expect(await outline()).toEqual(["Alpha*: A1*", "Beta: B1*, A1, C1"]);
    const a1InBeta = (await siteSpaces()).items[2]!;

    // Over HTTP for its 205.
    expect((await api("DELETE", `/spaces/${spaces[0]}`)).status).toBe(205);
    expect(await outline()).toEqual(["Alpha*: ", "Beta: B1*, C1"]);
    await expect(
      client.updateSiteSpaceById({ ...at, siteSpaceId: a1InBeta.id, body: { hidden: true } }),
    ).rejects.toMatchObject({ code: "not_found" });
    advance(7 * DAY);
    expect(await test.docsbase.runJobs()).toBe(1);
    // Alpha had nothing left: it went, and Beta became the default section.
    expect(await outline()).toEqual(["Beta*: B1*, C1"]);
    expect(await stored(siteNodesTable, a.id)).toBeUndefined();
    expect(await stored(siteSpacesTable, a1InBeta.id)).toBeUndefined();

    // A purged default site space passes its flag on.
    await client.deleteSpaceById({ spaceId: spaces[1]! });
    advance(7 * DAY);
    await test.docsbase.runJobs();
    expect(await outline()).toEqual(["Beta*: C1*"]);
  });

  it("restoring a deleted space brings its site spaces back", async () => {
    const { client, spaces, outline } = await setup(["A1", "B1"], 2);
    await client.deleteSpaceById({ spaceId: spaces[1]! });
    expect(await outline()).toEqual(["A1*"]);
    await client.restoreSpace({ spaceId: spaces[1]! });
    expect(await outline()).toEqual(["A1*", "B1"]);
  });
});
