import { CustomizationTheme } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: site customization (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.site_customization);
    h.expectConformant();
    await h.close();
  });

  it("reads, replaces, overrides per site space and resets, and published reads carry them", async () => {
    const user = await h.test.createUser("Owner", `owner-${kind}@customization.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Publisher" } })).id;
    const { data: docs } = await api.orgs.createSpace(org, { title: "Docs" });
    const { data: site } = await api.orgs.createSite(org, { title: "Handbook", spaces: [docs.id] });
    const { data: siteSpaces } = await api.orgs.listSiteSpaces(org, site.id);
    const siteSpaceId = siteSpaces.items[0]!.id;

    const { data: initial } = await api.orgs.getSiteCustomizationById(org, site.id);
    expect(initial).toMatchObject({ title: "Handbook", styling: { theme: "clean" } });
    const { data: replaced } = await api.orgs.updateSiteCustomizationById(org, site.id, {
      ...initial,
      styling: {
        ...initial.styling,
        theme: CustomizationTheme.Muted,
        primaryColor: { light: "#123456", dark: "#abcdef" },
      },
      footer: {
        groups: [{ title: "More", links: [{ title: "Blog", to: { kind: "url", url: "https://a.test/" } }] }],
      },
    });
    expect(replaced.styling).toMatchObject({
      theme: CustomizationTheme.Muted,
      primaryColor: { light: "#123456" },
    });
    expect(
      await statusOf(
        api.orgs.updateSiteCustomizationById(org, site.id, {
          ...initial,
          styling: { ...initial.styling, primaryColor: { light: "blue", dark: "#000" } },
        }),
      ),
    ).toBe(400);

    const { data: overridden } = await api.orgs.overrideSiteSpaceCustomizationById(
      org,
      site.id,
      siteSpaceId,
      {
        styling: { theme: CustomizationTheme.Bold },
        pdf: { enabled: false },
      },
    );
    expect(overridden).toMatchObject({
      styling: { theme: "bold", corners: "rounded" },
      pdf: { enabled: false },
    });
    expect((await api.orgs.getSiteSpaceCustomizationById(org, site.id, siteSpaceId)).data.styling.theme).toBe(
      "bold",
    );

    await api.orgs.publishSite(org, site.id);
    const { data: published } = await h.client("").orgs.getPublishedContentSite(org, site.id);
    expect(published.customizations.site.styling.theme).toBe("muted");
    expect(published.customizations.siteSpaces[siteSpaceId]?.styling.theme).toBe("bold");

    expect((await api.orgs.deleteSiteSpaceCustomizationById(org, site.id, siteSpaceId)).status).toBe(205);
    expect((await api.orgs.deleteSiteSpaceCustomizationById(org, site.id, siteSpaceId)).status).toBe(204);
    expect((await api.orgs.getSiteSpaceCustomizationById(org, site.id, siteSpaceId)).data.styling.theme).toBe(
      "muted",
    );
  });
});
