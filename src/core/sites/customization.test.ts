import { describe, expect, it } from "vitest";
import { referenceSchema } from "../../../test/support/reference.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { defaultSiteCustomization } from "./customization-defaults.js";
import { siteCustomizationsTable } from "./tables.js";

/**
 * Customization settings of sites and site spaces: the defaults, the PUT of the site's, the
 * override and its deletion for a site space, validation (400 naming the field, nothing stored),
 * role rules, the cascades, and published reads carrying them.
 */
const validate = referenceSchema("SiteCustomizationSettings");

async function setup() {
  const w = await createWorkspace();
  const docs = await w.space({ title: "Docs" });
  const guide = await w.space({ title: "Guide" });
  const site = (
    await w.client.createSite({
      organizationId: w.org,
      body: { title: "Handbook", spaces: [docs, guide], visibility: "public" },
    })
  ).id;
  const at = { organizationId: w.org, siteId: site };
  const [docsSiteSpace, guideSiteSpace] = (await w.client.listSiteSpaces(at)).items.map(
    (siteSpace) => siteSpace.id,
  ) as [string, string];
  const path = `/orgs/${w.org}/sites/${site}/customization`;
  const siteSpacePath = (id: string) => `/orgs/${w.org}/sites/${site}/site-spaces/${id}/customization`;
  return { ...w, docs, site, at, docsSiteSpace, guideSiteSpace, path, siteSpacePath };
}

/** The defaults with the changes of `edit`. */
function settings(edit: (value: ReturnType<typeof defaultSiteCustomization>) => void) {
  const value = defaultSiteCustomization("Handbook");
  edit(value);
  return value;
}

describe("site customization", () => {
  it("is the defaults, with the site's title, until the site's admins replace it", async () => {
    const w = await setup();
    const initial = await w.client.getSiteCustomizationById(w.at);
    expect(initial).toEqual(defaultSiteCustomization("Handbook"));
    const body = settings((value) => {
      value.styling.primaryColor = { light: "#112233", dark: "#abc" };
      value.styling.font = {
        id: "brand",
        custom: true,
        fontFamily: "Brand Sans",
        fontFaces: [
          { weight: 400, sources: [{ url: "https://fonts.example.test/b.woff2", format: "woff2" }] },
        ],
      };
      value.header.links = [
        {
          title: "Home",
          to: { kind: "url", url: "https://example.test/" },
          links: [{ title: "Blog", to: { kind: "url", url: "https://example.test/blog" } }],
        },
      ];
      value.favicon = { emoji: "🎉" };
      value.announcement = { enabled: true, message: "New release", style: "info" };
      value.themes.default = "dark";
    });
    const answer = await w.api("PUT", w.path, body);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(body);
    expect(validate(answer.body)).toBe(true);
    expect(await w.client.getSiteCustomizationById({ ...w.at, unmasked: true })).toEqual(body);
  });

  it("drops unknown members, as every body does", async () => {
    const w = await setup();
    const body = {
      ...settings(() => {}),
      unknown: 1,
      styling: { ...settings(() => {}).styling, extra: "x" },
    };
    expect((await w.api("PUT", w.path, body)).status).toBe(200);
    const stored = await w.client.getSiteCustomizationById(w.at);
    expect(stored).not.toHaveProperty("unknown");
    expect(stored.styling).not.toHaveProperty("extra");
  });

  it("refuses a bad value with 400 naming the field, and stores nothing", async () => {
    const w = await setup();
    const cases: [object, string][] = [
      [settings((v) => (v.styling.primaryColor.light = "blue")), "body.styling.primaryColor.light"],
      [settings((v) => ((v.styling as { theme: string }).theme = "neon")), "body.styling.theme"],
      [settings((v) => (v.privacyPolicy.url = "javascript:alert(1)")), "body.privacyPolicy.url"],
      [
        settings((v) => (v.header.logo = { light: "https://a.test/l.png", dark: "/l.png" })),
        "body.header.logo.dark",
      ],
      [settings((v) => (v.title = "x")), "body.title"],
      [
        settings((v) => (v.footer.groups = Array.from({ length: 51 }, () => ({ title: "G", links: [] })))),
        "body.footer.groups",
      ],
      [settings((v) => delete (v as Partial<typeof v>).pdf), "body.pdf"],
    ];
    for (const [body, field] of cases) {
      const answer = await w.api("PUT", w.path, body);
      expect(answer.status, field).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    const override = await w.api("PATCH", w.siteSpacePath(w.docsSiteSpace), {
      styling: { dangerColor: { light: "#fff", dark: "red" } },
    });
    expect(override.status).toBe(400);
    expect(override.body.error.message).toContain("body.styling.dangerColor.dark");
    expect(await w.stored(siteCustomizationsTable, w.site)).toBeUndefined();
    expect(await w.stored(siteCustomizationsTable, w.docsSiteSpace)).toBeUndefined();
  });

  it("lets members who view the site read it, and only its admins write", async () => {
    const w = await setup();
    for (const role of ["read", "edit", "create"] as const) {
      const member = (await w.member(role)).client;
      expect((await member.getSiteCustomizationById(w.at)).styling.theme).toBe("clean");
      expect(
        (await member.getSiteSpaceCustomizationById({ ...w.at, siteSpaceId: w.docsSiteSpace })).styling.theme,
      ).toBe("clean");
      await expect(
        member.updateSiteCustomizationById({ ...w.at, body: settings(() => {}) }),
      ).rejects.toMatchObject({ code: "forbidden" });
      await expect(
        member.overrideSiteSpaceCustomizationById({
          ...w.at,
          siteSpaceId: w.docsSiteSpace,
          body: { styling: { theme: "bold" } },
        }),
      ).rejects.toMatchObject({ code: "forbidden" });
      await expect(
        member.deleteSiteSpaceCustomizationById({ ...w.at, siteSpaceId: w.docsSiteSpace }),
      ).rejects.toMatchObject({ code: "forbidden" });
    }
    const guest = (await w.member(null)).client;
    for (const stranger of [guest, w.outsider.client]) {
      await expect(stranger.getSiteCustomizationById(w.at)).rejects.toMatchObject({ code: "not_found" });
    }
    expect((await w.as("")("GET", w.path)).status).toBe(401);
  });

  it("applies a site space's overrides over the site's settings; null drops one, delete drops all", async () => {
    const w = await setup();
    const at = { ...w.at, siteSpaceId: w.docsSiteSpace };
    const overridden = await w.client.overrideSiteSpaceCustomizationById({
      ...at,
      body: {
        title: "Docs only",
        styling: { theme: "bold", sidebar: { list: "pill" } },
        pdf: { enabled: false },
        header: { links: [] },
      },
    });
    expect(overridden).toMatchObject({
      title: "Docs only",
      styling: { theme: "bold", corners: "rounded", sidebar: { list: "pill", background: "default" } },
      pdf: { enabled: false },
    });
    expect(validate(overridden)).toBe(true);
    // A later change of the site shows through every member the site space does not override.
    await w.client.updateSiteCustomizationById({
      ...w.at,
      body: settings((v) => {
        v.styling.corners = "straight";
        v.styling.theme = "muted";
      }),
    });
    const read = await w.client.getSiteSpaceCustomizationById(at);
    expect(read.styling).toMatchObject({ theme: "bold", corners: "straight", sidebar: { list: "pill" } });
    // null drops one override; the others stay. `title: null` leaves the site space without a title.
    const reset = await w.client.overrideSiteSpaceCustomizationById({
      ...at,
      body: { title: null, styling: { theme: null } },
    });
    expect(reset.styling).toMatchObject({ theme: "muted", sidebar: { list: "pill" } });
    expect(reset).not.toHaveProperty("title");
    expect(reset.pdf.enabled).toBe(false);
    // The other site space has the site's settings.
    expect(
      (await w.client.getSiteSpaceCustomizationById({ ...w.at, siteSpaceId: w.guideSiteSpace })).title,
    ).toBe("Handbook");
    expect((await w.api("DELETE", w.siteSpacePath(w.docsSiteSpace))).status).toBe(205);
    expect((await w.api("DELETE", w.siteSpacePath(w.docsSiteSpace))).status).toBe(204);
    expect(await w.client.getSiteSpaceCustomizationById(at)).toEqual(
      await w.client.getSiteCustomizationById(w.at),
    );
    expect((await w.api("GET", w.siteSpacePath("nope"))).status).toBe(404);
    expect((await w.api("PATCH", w.siteSpacePath("nope"), {})).status).toBe(404);
  });

  it("fills the published site's customizations: the site's, and every site space's", async () => {
    const w = await setup();
    await w.client.publishSite(w.at);
    await w.client.overrideSiteSpaceCustomizationById({
      ...w.at,
      siteSpaceId: w.guideSiteSpace,
      body: { styling: { primaryColor: { light: "#000", dark: "#fff" } } },
    });
    // Read as a visitor, with no token.
    const published = await w.as("")("GET", `/orgs/${w.org}/sites/${w.site}/published`);
    expect(published.status).toBe(200);
    const { site, siteSpaces } = published.body.customizations;
    expect(site).toEqual(defaultSiteCustomization("Handbook"));
    expect(Object.keys(siteSpaces).sort()).toEqual([w.docsSiteSpace, w.guideSiteSpace].sort());
    expect(siteSpaces[w.docsSiteSpace]).toEqual(site);
    expect(siteSpaces[w.guideSiteSpace]!.styling.primaryColor).toEqual({ light: "#000", dark: "#fff" });
    expect(validate(siteSpaces[w.guideSiteSpace])).toBe(true);
  });

  it("goes with its site space and with its site", async () => {
    const w = await setup();
    await w.client.updateSiteCustomizationById({ ...w.at, body: settings(() => {}) });
    for (const siteSpaceId of [w.docsSiteSpace, w.guideSiteSpace]) {
      await w.client.overrideSiteSpaceCustomizationById({
        ...w.at,
        siteSpaceId,
        body: { styling: { theme: "bold" } },
      });
    }
    await w.client.deleteSiteSpaceById({ ...w.at, siteSpaceId: w.docsSiteSpace });
    expect(await w.stored(siteCustomizationsTable, w.docsSiteSpace)).toBeUndefined();
    expect(await w.stored(siteCustomizationsTable, w.guideSiteSpace)).toBeDefined();
    await w.client.deleteSiteById(w.at);
    expect(await w.stored(siteCustomizationsTable, w.site)).toBeUndefined();
    expect(await w.stored(siteCustomizationsTable, w.guideSiteSpace)).toBeUndefined();
  });
});
