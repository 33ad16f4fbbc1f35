import { describe, expect, it } from "vitest";
import { expectRefused, expectRefusedUnchanged } from "../../../test/support/limits.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { siteNodesTable, siteSpacesTable } from "./tables.js";

const DAY = 24 * 60 * 60 * 1000;

/** A workspace with spaces titled `titles` and a site whose site spaces are the first `onSite` of them. */
async function setup(titles = ["Docs", "API", "Guides", "Blog"], onSite = 2) {
  const w = await createWorkspace();
  const spaces: string[] = [];
  for (const title of titles) spaces.push(await w.space({ title }));
  const site = (
    await w.api("POST", `/orgs/${w.org}/sites`, { title: "Handbook", spaces: spaces.slice(0, onSite) })
  ).body;
  const base = `/orgs/${w.org}/sites/${site.id}`;
  const get = async (path: string) => (await w.api("GET", `${base}${path}`)).body;
  /** The structure as `[section title, default, [site space title, default]...]`, or site spaces. */
  const outline = async () => {
    const structure = await get("/structure");
    const spacesOf = (list: any[]) => list.map((one) => `${one.title}${one.default ? "*" : ""}`);
    const walk = (items: any[]): unknown[] =>
      items.map((item) =>
        item.object === "site-section"
          ? `${item.title}${item.default ? "*" : ""}: ${spacesOf(item.siteSpaces).join(", ")}`
          : { [item.title]: walk(item.children) },
      );
    return structure.type === "siteSpaces" ? spacesOf(structure.structure) : walk(structure.structure);
  };
  const addSection = async (space: string, body: object = {}) => {
    const answer = await w.api("POST", `${base}/sections`, { spaceId: space, ...body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  const addGroup = async (body: object) => {
    const answer = await w.api("POST", `${base}/section-groups`, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  return { ...w, spaces, site, base, get, outline, addSection, addGroup };
}

describe("site structure: site spaces and sections", () => {
  it("switches from site spaces to sections with the first section, and back when the last goes", async () => {
    const { api, base, spaces, get, outline, addSection, stored } = await setup();
    expect(await outline()).toEqual(["Docs*", "API"]);
    expect((await get("/structure")).type).toBe("siteSpaces");

    const created = await api("POST", `${base}/sections`, { spaceId: spaces[2] });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toMatch(new RegExp(`${base}/sections/${created.body.id}$`));
    expect(created.body).toMatchObject({
      object: "site-section",
      title: "Guides",
      path: "guides",
      default: true,
    });
    expect((await get("/structure")).type).toBe("sections");
    expect(await outline()).toEqual(["Guides*: Docs*, API, Guides"]);
    const siteSpaces = (await get("/site-spaces")).items;
    expect(siteSpaces.map((one: any) => one.section)).toEqual([
      created.body.id,
      created.body.id,
      created.body.id,
    ]);

    const second = await addSection(spaces[3]!, { title: "Blog posts", icon: "pen" });
    expect(second).toMatchObject({ default: false, path: "blog-posts", icon: "pen" });
    expect(await outline()).toEqual(["Guides*: Docs*, API, Guides", "Blog posts: Blog*"]);

    // Not the last section: its site spaces go with it.
    expect((await api("DELETE", `${base}/sections/${second.id}`)).status).toBe(205);
    expect(await stored(siteNodesTable, second.id)).toBeUndefined();
    expect((await get("/site-spaces")).count).toBe(3);
    // The last section: its site spaces go back to the root, in order, with their default.
    expect((await api("DELETE", `${base}/sections/${created.body.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/sections/${created.body.id}`)).status).toBe(204);
    expect((await get("/structure")).type).toBe("siteSpaces");
    expect(await outline()).toEqual(["Docs*", "API", "Guides"]);
    expect((await get("/site-spaces")).items.every((one: any) => one.section === undefined)).toBe(true);
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
    const { api, base, spaces, outline, addSection } = await setup(["Docs", "API", "Guides"], 0);
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    const c = await addSection(spaces[2]!, { title: "Gamma" });
    const patched = await api("PATCH", base, { defaultSiteSection: b.id });
    expect(patched.status).toBe(200);
    expect(await outline()).toEqual(["Alpha: Docs*", "Beta*: API*", "Gamma: Guides*"]);
    expect((await api("DELETE", `${base}/sections/${b.id}`)).status).toBe(205);
    expect(await outline()).toEqual(["Alpha: Docs*", "Gamma*: Guides*"]);
    expect((await api("DELETE", `${base}/sections/${c.id}`)).status).toBe(205);
    expect(await outline()).toEqual(["Alpha*: Docs*"]);

    const added = [];
    for (const space of spaces.slice(1)) {
      const answer = await api("POST", `${base}/site-spaces`, { spaceId: space });
      expect(answer.status).toBe(201);
      expect(answer.headers.get("location")).toContain(`${base}/site-spaces/${answer.body.id}`);
      expect(answer.body).toMatchObject({ section: a.id, default: false });
      added.push(answer.body);
    }
    expect(await outline()).toEqual(["Alpha*: Docs*, API, Guides"]);
    const first = (await api("GET", `${base}/site-spaces?default=true`)).body.items[0];
    expect((await api("DELETE", `${base}/site-spaces/${first.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/site-spaces/${first.id}`)).status).toBe(204);
    expect((await api("DELETE", `${base}/site-spaces/missing`)).status).toBe(204);
    expect(await outline()).toEqual(["Alpha*: API*, Guides"]);
    // The default was last: the one before takes the flag.
    await api("PATCH", `${base}/sections/${a.id}`, { defaultSiteSpace: added[1].id });
    expect(await outline()).toEqual(["Alpha*: API, Guides*"]);
    await api("DELETE", `${base}/site-spaces/${added[1].id}`);
    expect(await outline()).toEqual(["Alpha*: API*"]);
    // An explicit delete keeps the section, even empty.
    await api("DELETE", `${base}/site-spaces/${added[0].id}`);
    expect(await outline()).toEqual(["Alpha*: "]);
  });

  it("adds site spaces to the default section, a named section, or the root", async () => {
    const { api, base, spaces, get, outline, addSection } = await setup(["Docs", "API", "Guides", "Blog"], 1);
    const answer = await api("POST", `${base}/site-spaces`, { spaceId: spaces[1] });
    expect(answer.body).toMatchObject({ object: "site-space", title: "API", path: "api", default: false });
    expect(answer.body.section).toBeUndefined();
    expect((await api("POST", `${base}/site-spaces`, { spaceId: spaces[2], sectionId: "nope" })).status).toBe(
      400,
    );
    const main = await addSection(spaces[2]!, { title: "Main" });
    const other = await addSection(spaces[3]!, { title: "Other" });
    await api("POST", `${base}/site-spaces`, { spaceId: spaces[0], sectionId: other.id });
    await api("POST", `${base}/site-spaces`, { spaceId: spaces[3] });
    expect(await outline()).toEqual(["Main*: Docs*, API, Guides, Blog", "Other: Blog*, Docs"]);
    expect(main.siteSpaces.map((one: any) => one.title)).toEqual(["Docs", "API", "Guides"]);

    // Same space twice in a section: the path stays unique.
    expect((await get(`/sections`)).items[1].siteSpaces.map((one: any) => one.path)).toEqual([
      "blog",
      "docs",
    ]);
    const defaults = await get("/site-spaces?default=true");
    expect(defaults.items.map((one: any) => one.title)).toEqual(["Docs", "Blog"]);
    const others = await get("/site-spaces?default=false");
    expect(others.items.map((one: any) => one.title)).toEqual(["API", "Guides", "Blog", "Docs"]);
    const page = await get("/site-spaces?limit=4");
    expect(page.count).toBe(6);
    const rest = await get(`/site-spaces?limit=4&page=${page.next.page}`);
    expect(rest.items.map((one: any) => one.title)).toEqual(["Blog", "Docs"]);
    expect(rest.next).toBeUndefined();
    expect((await api("POST", `${base}/site-spaces`, { spaceId: "missing" })).status).toBe(400);
  });

  it("updates sections: title, path, default site space, condition, icon and description", async () => {
    const { api, base, spaces, addSection, get } = await setup(["Docs", "API", "Guides"], 2);
    const main = await addSection(spaces[2]!, { title: "Main" });
    const other = await addSection(spaces[0]!, { title: "Main" });
    expect(other.path).toBe("main-2");
    const [, api2] = main.siteSpaces;
    const url = `${base}/sections/${main.id}`;
    const updated = await api("PATCH", url, {
      title: "Primary",
      path: "primary",
      defaultSiteSpace: api2.id,
      condition: "visitor.claims.plan == 'pro'",
      icon: "star",
      description: "Where to start",
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      title: "Primary",
      path: "primary",
      condition: "visitor.claims.plan == 'pro'",
      icon: "star",
      description: "Where to start",
    });
    expect(updated.body.siteSpaces.map((one: any) => one.default)).toEqual([false, true, false]);
    // The own path again is fine; another section's is a conflict.
    expect((await api("PATCH", url, { path: "primary" })).status).toBe(200);
    const taken = await api("PATCH", url, { path: "main-2" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("body.path");

    const observe = () => get("/sections");
    await expectRefusedUnchanged(observe, [
      [
        () => api("PATCH", url, { title: "Renamed", defaultSiteSpace: other.siteSpaces[0].id }),
        "body.defaultSiteSpace",
      ],
      [
        () => api("PATCH", url, { title: "Renamed", condition: "visitor.claims.constructor" }),
        "body.condition",
      ],
      [() => api("PATCH", url, { condition: "alert(1)" }), "body.condition"],
      [() => api("PATCH", url, { condition: "visitor.claims.a ==" }), "body.condition"],
      [() => api("PATCH", url, { path: "two/segments" }), "body.path"],
    ]);
    const parseError = await api("PATCH", url, { condition: "visitor.claims.__proto__" });
    expect(parseError.body.error.message).toMatch(/position \d+/);

    const cleared = await api("PATCH", url, { condition: null, icon: null, description: null });
    expect(cleared.body.condition).toBeUndefined();
    expect(cleared.body.icon).toBeUndefined();
    expect(cleared.body.description).toBeUndefined();
    // Omitted fields stay as they are.
    expect((await api("PATCH", url, {})).body).toMatchObject({ title: "Primary", path: "primary" });
    expect((await api("PATCH", `${base}/sections/missing`, { title: "Xx" })).status).toBe(404);
  });

  it("updates site spaces: path unique among siblings, condition, space and hidden", async () => {
    const { api, base, spaces, addSection, get } = await setup(["Docs", "API", "Guides"], 2);
    const [docs, apiSpace] = (await get("/site-spaces")).items;
    const url = `${base}/site-spaces/${docs.id}`;
    const taken = await api("PATCH", url, { path: "api" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("body.path");
    const updated = await api("PATCH", url, {
      path: "start",
      condition: "visitor.claims.unsigned.beta == true",
      spaceId: spaces[2],
      hidden: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      path: "start",
      condition: "visitor.claims.unsigned.beta == true",
      title: "Guides",
      hidden: true,
      default: true,
    });
    expect(updated.body.space.id).toBe(spaces[2]);
    await expectRefusedUnchanged(
      () => get("/site-spaces"),
      [
        [() => api("PATCH", url, { path: "other", spaceId: "missing" }), "body.spaceId"],
        [() => api("PATCH", url, { path: "other", condition: "visitor.claims.a()" }), "body.condition"],
        [() => api("PATCH", url, { hidden: "yes" }), "body.hidden"],
      ],
    );
    const kept = await api("PATCH", url, { hidden: false });
    expect(kept.body.condition).toBe("visitor.claims.unsigned.beta == true");
    expect((await api("PATCH", url, { condition: null })).body.condition).toBeUndefined();
    // The same path in another section is fine.
    await addSection(spaces[1]!, { title: "Main" });
    const other = await addSection(spaces[0]!, { title: "Other" });
    const inOther = other.siteSpaces[0];
    expect((await api("PATCH", `${base}/site-spaces/${inOther.id}`, { path: "api" })).status).toBe(200);
    expect(apiSpace.path).toBe("api");
    expect((await api("PATCH", `${base}/site-spaces/missing`, { hidden: true })).status).toBe(404);
  });
});

describe("site structure: section groups", () => {
  it("adds, nests, updates and deletes groups; sections move in and out", async () => {
    const { api, base, spaces, outline, addSection, addGroup, get } = await setup(
      ["A1", "B1", "C1", "D1"],
      0,
    );
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    const c = await addSection(spaces[2]!, { title: "Gamma" });
    const d = await addSection(spaces[3]!, { title: "Delta" });
    const group = await addGroup({ title: "Guides", icon: "book", sections: [c.id, b.id] });
    expect(group).toMatchObject({ object: "site-section-group", title: "Guides", icon: "book" });
    expect(group.children.map((child: any) => child.title)).toEqual(["Gamma", "Beta"]);
    expect(group.sections.map((child: any) => child.sectionGroup)).toEqual([group.id, group.id]);
    const inner = await addGroup({ title: "Inner", parent: group.id, sections: [d.id] });
    expect(inner.sectionGroup).toBe(group.id);
    expect(await outline()).toEqual([
      "Alpha*: A1*",
      { Guides: ["Gamma: C1*", "Beta: B1*", { Inner: ["Delta: D1*"] }] },
    ]);
    expect((await get("/section-groups")).items.map((one: any) => one.title)).toEqual(["Guides", "Inner"]);
    expect((await get("/sections")).items.map((one: any) => one.title)).toEqual([
      "Alpha",
      "Gamma",
      "Beta",
      "Delta",
    ]);

    const renamed = await api("PATCH", `${base}/section-groups/${group.id}`, {
      title: "Manuals",
      icon: null,
    });
    expect(renamed.body.title).toBe("Manuals");
    expect(renamed.body.icon).toBeUndefined();

    const added = await api("POST", `${base}/section-groups/${inner.id}/sections`, { sectionId: a.id });
    expect(added.status).toBe(201);
    expect(added.headers.get("location")).toContain(`${base}/section-groups/${inner.id}`);
    expect(added.body.children.map((child: any) => child.title)).toEqual(["Delta", "Alpha"]);
    expect(
      (await api("POST", `${base}/section-groups/${inner.id}/sections`, { sectionId: "x" })).status,
    ).toBe(400);
    expect((await api("POST", `${base}/section-groups/missing/sections`, { sectionId: a.id })).status).toBe(
      404,
    );

    // Removing: the section goes right after the group, in the group's parent.
    expect((await api("DELETE", `${base}/section-groups/${inner.id}/sections/${d.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/section-groups/${inner.id}/sections/${d.id}`)).status).toBe(204);
    expect(await outline()).toEqual([
      { Manuals: ["Gamma: C1*", "Beta: B1*", { Inner: ["Alpha*: A1*"] }, "Delta: D1*"] },
    ]);

    // Deleting a group: its children take its place in its parent, in order.
    await api("POST", `${base}/section-groups/${inner.id}/sections`, { sectionId: d.id });
    expect((await api("DELETE", `${base}/section-groups/${inner.id}`)).status).toBe(205);
    expect((await api("DELETE", `${base}/section-groups/${inner.id}`)).status).toBe(204);
    expect(await outline()).toEqual([{ Manuals: ["Gamma: C1*", "Beta: B1*", "Alpha*: A1*", "Delta: D1*"] }]);
    await api("DELETE", `${base}/section-groups/${group.id}`);
    expect(await outline()).toEqual(["Gamma: C1*", "Beta: B1*", "Alpha*: A1*", "Delta: D1*"]);
  });

  it("refuses unknown parents and sections, and sections listed twice, without changing anything", async () => {
    const { api, base, spaces, addSection, get } = await setup(["A1"], 0);
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const url = `${base}/section-groups`;
    await expectRefusedUnchanged(
      async () => [await get("/structure"), await get("/section-groups")],
      [
        [() => api("POST", url, { title: "G", parent: "missing" }), "body.parent"],
        [() => api("POST", url, { title: "G", parent: a.id }), "body.parent"],
        [() => api("POST", url, { title: "G", sections: ["missing"] }), "body.sections[0]"],
        [() => api("POST", url, { title: "G", sections: [a.id, a.id] }), "body.sections[1]"],
      ],
    );
    expect((await api("PATCH", `${url}/missing`, { title: "G" })).status).toBe(404);
    expect((await api("DELETE", `${url}/missing`)).status).toBe(204);
  });
});

describe("site structure: order", () => {
  it("moves sections, groups and site spaces within their parent, and refuses anything else", async () => {
    const { api, base, spaces, outline, addSection, addGroup, get } = await setup(
      ["A1", "B1", "C1", "D1"],
      0,
    );
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    const c = await addSection(spaces[2]!, { title: "Gamma" });
    const d = await addSection(spaces[3]!, { title: "Delta" });
    const group = await addGroup({ title: "G", sections: [d.id] });
    const section = (id: string) => ({ type: "site-section", siteSection: id });
    const move = (id: string, position?: object) =>
      api("POST", `${base}/sections/${id}/move`, position === undefined ? {} : { position });

    const moved = await move(c.id, { before: section(a.id) });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: "site-section", id: c.id });
    expect(await outline()).toEqual(["Gamma: C1*", "Alpha*: A1*", "Beta: B1*", { G: ["Delta: D1*"] }]);
    await move(c.id, { after: section(b.id) });
    expect(await outline()).toEqual(["Alpha*: A1*", "Beta: B1*", "Gamma: C1*", { G: ["Delta: D1*"] }]);
    await move(a.id, { after: section(b.id), before: section(c.id) });
    expect(await outline()).toEqual(["Beta: B1*", "Alpha*: A1*", "Gamma: C1*", { G: ["Delta: D1*"] }]);
    await move(b.id);
    expect(await outline()).toEqual(["Alpha*: A1*", "Gamma: C1*", { G: ["Delta: D1*"] }, "Beta: B1*"]);
    // Already there: nothing changes.
    expect((await move(b.id)).status).toBe(200);
    expect((await move(a.id, { before: section(c.id) })).status).toBe(200);
    expect(await outline()).toEqual(["Alpha*: A1*", "Gamma: C1*", { G: ["Delta: D1*"] }, "Beta: B1*"]);

    const before = await get("/structure");
    for (const [position, field] of [
      [{ before: section(d.id) }, "body.position.before"], // another parent
      [{ before: section("missing") }, "body.position.before"],
      [{ after: section(a.id) }, "body.position.after"], // itself
      [{ after: section(b.id), before: section(c.id) }, "body.position"], // not adjacent in that order
    ] as const) {
      expectRefused(await move(a.id, position), field);
    }
    expect((await move("missing", { before: section(a.id) })).status).toBe(404);
    expect(await get("/structure")).toEqual(before);

    // Groups move among sections and groups of their parent.
    const groupMove = (position: object) =>
      api("POST", `${base}/section-groups/${group.id}/move`, { position });
    const g = await groupMove({ before: { type: "site-section", id: a.id } });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ object: "site-section-group", id: group.id });
    expect(await outline()).toEqual([{ G: ["Delta: D1*"] }, "Alpha*: A1*", "Gamma: C1*", "Beta: B1*"]);
    expectRefused(await groupMove({ after: { type: "site-section", id: d.id } }), "body.position.after");
    expectRefused(
      await groupMove({ after: { type: "site-section-group", id: a.id } }),
      "body.position.after",
    );
    expect((await api("POST", `${base}/section-groups/missing/move`, {})).status).toBe(404);

    // Site spaces move within their section.
    await api("POST", `${base}/site-spaces`, { spaceId: spaces[1], sectionId: a.id });
    const [one, two] = (await get("/sections")).items.find((item: any) => item.id === a.id).siteSpaces;
    const spaceMove = (id: string, position: object) =>
      api("POST", `${base}/site-spaces/${id}/move`, { position });
    const spaceMoved = await spaceMove(two.id, { before: { type: "site-space", siteSpace: one.id } });
    expect(spaceMoved.status).toBe(200);
    expect(spaceMoved.body).toMatchObject({ object: "site-space", id: two.id });
    expect(await outline()).toEqual([{ G: ["Delta: D1*"] }, "Alpha*: B1, A1*", "Gamma: C1*", "Beta: B1*"]);
    const elsewhere = (await get("/site-spaces")).items.find((item: any) => item.section === c.id);
    expectRefused(
      await spaceMove(one.id, { before: { type: "site-space", siteSpace: elsewhere.id } }),
      "body.position.before",
    );
    expectRefused(
      await spaceMove(one.id, { before: { type: "site-space", siteSpace: "nope" } }),
      "body.position.before",
    );
    expect((await spaceMove("nope", { before: { type: "site-space", siteSpace: one.id } })).status).toBe(404);
  });

  it("sorts the structure with item pointers, answering the moved item", async () => {
    const { api, base, spaces, outline, addSection, addGroup } = await setup(["A1", "B1", "C1"], 2);
    // Site spaces at the root of a site without sections.
    const [first, second] = (await api("GET", `${base}/site-spaces`)).body.items;
    const sort = (item: object, position: object) =>
      api("PATCH", `${base}/structure/sort`, { item, position });
    const sorted = await sort(
      { type: "site-space", id: second.id },
      { before: { type: "site-space", id: first.id } },
    );
    expect(sorted.status).toBe(200);
    expect(sorted.body).toMatchObject({ object: "site-space", id: second.id });
    expect(await outline()).toEqual(["B1", "A1*"]);

    const a = await addSection(spaces[2]!, { title: "Alpha" });
    const b = await addSection(spaces[0]!, { title: "Beta" });
    const group = await addGroup({ title: "G" });
    const toFront = await sort(
      { type: "site-section-group", id: group.id },
      { before: { type: "site-section", id: a.id } },
    );
    expect(toFront.body).toMatchObject({ object: "site-section-group", id: group.id });
    const toEnd = await sort({ type: "site-section", id: a.id }, {});
    expect(toEnd.body).toMatchObject({ object: "site-section", id: a.id });
    expect(await outline()).toEqual([{ G: [] }, "Beta: A1*", "Alpha*: B1, A1*, C1"]);

    expectRefused(
      await sort({ type: "site-section", id: a.id }, { before: { type: "site-space", id: first.id } }),
      "body.position.before",
    );
    expectRefused(
      await sort({ type: "site-space", id: first.id }, { after: { type: "site-section", id: b.id } }),
      "body.position.after",
    );
    expectRefused(
      await sort({ type: "site-section", id: a.id }, { after: { type: "site-section", id: a.id } }),
      "body.position.after",
    );
    expect((await sort({ type: "site-section", id: group.id }, {})).status).toBe(404);
    expect((await sort({ type: "site-space", id: "missing" }, {})).status).toBe(404);
    expectRefused(await sort({ type: "page", id: a.id }, {}), "body.item.type");
  });
});

describe("site structure: limits and roles", () => {
  it("accepts every bound and refuses one past it, naming the field", async () => {
    const { api, base, spaces, addSection, addGroup, get } = await setup(["Docs", "API"], 0);
    const section = await addSection(spaces[0]!, { title: "ab", icon: "i".repeat(50) });
    expect(section.title).toBe("ab");
    const url = `${base}/sections/${section.id}`;
    const condition = (length: number) => {
      const prefix = 'visitor.claims.a == "';
      return `${prefix}${"x".repeat(length - prefix.length - 1)}"`;
    };
    const accepted = await api("PATCH", url, {
      title: "t".repeat(128),
      path: "p".repeat(100),
      description: "d".repeat(256),
      condition: condition(1024),
      icon: "i".repeat(50),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await api("PATCH", url, { path: "p" })).status).toBe(200);
    const group = await addGroup({ title: "g" });
    expect((await addGroup({ title: "g".repeat(100) })).title).toHaveLength(100);
    const siteSpace = section.siteSpaces[0];
    expect(
      (
        await api("PATCH", `${base}/site-spaces/${siteSpace.id}`, {
          path: "s".repeat(100),
          condition: condition(1024),
        })
      ).status,
    ).toBe(200);

    await expectRefusedUnchanged(
      async () => [await get("/structure"), await get("/section-groups")],
      [
        [() => api("PATCH", url, { title: "t" }), "body.title"],
        [() => api("PATCH", url, { title: "t".repeat(129) }), "body.title"],
        [() => api("PATCH", url, { path: "" }), "body.path"],
        [() => api("PATCH", url, { path: "p".repeat(101) }), "body.path"],
        [() => api("PATCH", url, { description: "d".repeat(257) }), "body.description"],
        [() => api("PATCH", url, { condition: condition(1025) }), "body.condition"],
        [() => api("PATCH", url, { icon: "i".repeat(51) }), "body.icon"],
        [() => api("POST", `${base}/sections`, { spaceId: spaces[1], title: "t" }), "body.title"],
        [() => api("POST", `${base}/sections`, { spaceId: spaces[1], title: "t".repeat(129) }), "body.title"],
        [() => api("POST", `${base}/sections`, { spaceId: spaces[1], icon: "i".repeat(51) }), "body.icon"],
        [() => api("POST", `${base}/sections`, { title: "No space" }), "body.spaceId"],
        [() => api("POST", `${base}/section-groups`, { title: "" }), "body.title"],
        [() => api("POST", `${base}/section-groups`, { title: "g".repeat(101) }), "body.title"],
        [() => api("PATCH", `${base}/section-groups/${group.id}`, { title: "g".repeat(101) }), "body.title"],
        [() => api("PATCH", `${base}/section-groups/${group.id}`, { icon: "i".repeat(51) }), "body.icon"],
        [() => api("PATCH", `${base}/site-spaces/${siteSpace.id}`, { path: "s".repeat(101) }), "body.path"],
        [
          () => api("PATCH", `${base}/site-spaces/${siteSpace.id}`, { condition: condition(1025) }),
          "body.condition",
        ],
      ],
    );
  });

  it("lets read members read, refuses writes to non-admins (403) and hides the site from outsiders (404)", async () => {
    const { api, base, spaces, addSection, addGroup, member, outsider } = await setup(["Docs", "API"], 1);
    const section = await addSection(spaces[1]!, { title: "Main" });
    const group = await addGroup({ title: "G" });
    const siteSpace = section.siteSpaces[0];
    const reader = await member("read");
    const editor = await member("edit");
    for (const path of [
      "/sections",
      "/section-groups",
      "/site-spaces",
      "/structure",
      "/site-spaces?shareKey=x",
    ]) {
      const answer = await reader("GET", `${base}${path}`);
      expect(answer.status, path).toBe(200);
      // The same items as the owner sees (their spaces' permissions differ).
      const ids = (body: unknown) => JSON.stringify(body).match(/"id":"[^"]+"/g);
      expect(ids(answer.body)).toEqual(ids((await api("GET", `${base}${path}`)).body));
      expect((await outsider("GET", `${base}${path}`)).status, path).toBe(404);
    }
    const writes: [string, string, object?][] = [
      ["POST", "/sections", { spaceId: spaces[0] }],
      ["PATCH", `/sections/${section.id}`, { title: "Renamed" }],
      ["DELETE", `/sections/${section.id}`],
      ["POST", `/sections/${section.id}/move`, {}],
      ["POST", "/section-groups", { title: "G2" }],
      ["PATCH", `/section-groups/${group.id}`, { title: "G3" }],
      ["DELETE", `/section-groups/${group.id}`],
      ["POST", `/section-groups/${group.id}/sections`, { sectionId: section.id }],
      ["DELETE", `/section-groups/${group.id}/sections/${section.id}`],
      ["POST", `/section-groups/${group.id}/move`, {}],
      ["POST", "/site-spaces", { spaceId: spaces[0] }],
      ["PATCH", `/site-spaces/${siteSpace.id}`, { hidden: true }],
      ["DELETE", `/site-spaces/${siteSpace.id}`],
      ["POST", `/site-spaces/${siteSpace.id}/move`, {}],
      ["PATCH", "/structure/sort", { item: { type: "site-section", id: section.id }, position: {} }],
    ];
    for (const [method, path, body] of writes) {
      expect((await editor(method, `${base}${path}`, body)).status, `${method} ${path}`).toBe(403);
      expect((await reader(method, `${base}${path}`, body)).status, `${method} ${path}`).toBe(403);
      expect((await outsider(method, `${base}${path}`, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await api("GET", `${base.replace(/sites\/.*/, "sites/missing")}/structure`)).status).toBe(404);
  });
});

describe("site structure: space deletion", () => {
  it("hides the site spaces of a deleted space, and purging it removes them with a section left empty", async () => {
    const { test, api, base, spaces, outline, addSection, advance, stored } = await setup(
      ["A1", "B1", "C1"],
      0,
    );
    const a = await addSection(spaces[0]!, { title: "Alpha" });
    const b = await addSection(spaces[1]!, { title: "Beta" });
    await api("POST", `${base}/site-spaces`, { spaceId: spaces[0], sectionId: b.id });
    await api("POST", `${base}/site-spaces`, { spaceId: spaces[2], sectionId: b.id });
    expect(await outline()).toEqual(["Alpha*: A1*", "Beta: B1*, A1, C1"]);
    const a1InBeta = (await api("GET", `${base}/site-spaces`)).body.items[2];

    expect((await api("DELETE", `/spaces/${spaces[0]}`)).status).toBe(205);
    expect(await outline()).toEqual(["Alpha*: ", "Beta: B1*, C1"]);
    expect((await api("PATCH", `${base}/site-spaces/${a1InBeta.id}`, { hidden: true })).status).toBe(404);
    advance(7 * DAY);
    expect(await test.docsbase.runJobs()).toBe(1);
    // Alpha had nothing left: it went, and Beta became the default section.
    expect(await outline()).toEqual(["Beta*: B1*, C1"]);
    expect(await stored(siteNodesTable, a.id)).toBeUndefined();
    expect(await stored(siteSpacesTable, a1InBeta.id)).toBeUndefined();

    // A purged default site space passes its flag on.
    await api("DELETE", `/spaces/${spaces[1]}`);
    advance(7 * DAY);
    await test.docsbase.runJobs();
    expect(await outline()).toEqual(["Beta*: C1*"]);
  });

  it("restoring a deleted space brings its site spaces back", async () => {
    const { api, spaces, outline } = await setup(["A1", "B1"], 2);
    await api("DELETE", `/spaces/${spaces[1]}`);
    expect(await outline()).toEqual(["A1*"]);
    await api("POST", `/spaces/${spaces[1]}/restore`);
    expect(await outline()).toEqual(["A1*", "B1"]);
  });
});
