import { describe, expect, it } from "vitest";
import { referenceSchema } from "../../../test/support/reference.js";
import { defaultSiteCustomization } from "./customization-defaults.js";

const validate = referenceSchema("SiteCustomizationSettings");
const errorsOf = (value: unknown) => (validate(value) ? [] : validate.errors);

describe("defaultSiteCustomization", () => {
  it("is valid against the reference's SiteCustomizationSettings, with or without a title", () => {
    expect(errorsOf(defaultSiteCustomization())).toEqual([]);
    expect(errorsOf(defaultSiteCustomization("Product documentation"))).toEqual([]);
  });

  it("carries the title when given and leaves it out otherwise", () => {
    expect(defaultSiteCustomization("Docs").title).toBe("Docs");
    expect("title" in defaultSiteCustomization()).toBe(false);
  });

  it("is checked by a validator that refuses a missing required member", () => {
    // Guards against a vacuous validation: the schema does require members at several levels.
    const withoutStyling: Record<string, unknown> = { ...defaultSiteCustomization() };
    delete withoutStyling["styling"];
    expect(validate(withoutStyling)).toBe(false);
    const withoutList = defaultSiteCustomization() as unknown as {
      styling: { sidebar: Record<string, unknown> };
    };
    delete withoutList.styling.sidebar["list"];
    expect(validate(withoutList)).toBe(false);
    const badColor = defaultSiteCustomization();
    badColor.styling.primaryColor.dark = "blue";
    expect(validate(badColor)).toBe(false);
  });

  it("returns a fresh object on every call", () => {
    const first = defaultSiteCustomization("Docs");
    first.title = "Changed";
    first.styling.theme = "bold";
    first.styling.primaryColor.light = "#000000";
    first.styling.sidebar.list = "pill";
    first.header.links.push({ title: "Home", to: null, links: [] });
    first.footer.groups.push({ title: "More", links: [] });
    first.pdf.enabled = false;
    const second = defaultSiteCustomization("Docs");
    expect(second).not.toBe(first);
    expect(second.title).toBe("Docs");
    expect(second.styling.theme).toBe("clean");
    expect(second.styling.primaryColor.light).toBe("#346DDB");
    expect(second.styling.sidebar.list).toBe("default");
    expect(second.header.links).toEqual([]);
    expect(second.footer.groups).toEqual([]);
    expect(second.pdf.enabled).toBe(true);
    expect(defaultSiteCustomization("Docs")).toEqual(second);
  });
});
