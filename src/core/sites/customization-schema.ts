import * as z from "zod";
import { httpUrl, MAX_ID_LENGTH, MAX_URL_LENGTH, wellFormed } from "../shared/schema.js";
import { conditionText, siteTitle } from "./schemas.js";

/**
 * The reference's `SiteCustomizationSettings` as docsbase accepts it (`updateSiteCustomizationById`)
 * and the override of a site space (`overrideSiteSpaceCustomizationById`), member by member, so a
 * bad value is a 400 naming its field (`body.styling.primaryColor.light`). Unknown members are
 * dropped, as in every other body. Beyond the reference: URLs are absolute `http:`/`https:` (a
 * renderer shows them as links and images), and lists are bounded (docs/api.md, "Limits").
 */

/** Most items of each list of the settings: header items, footer groups, links of one of those. */
export const MAX_CUSTOMIZATION_LINKS = 50;
/** Most font faces of a custom font, and sources of one face. */
export const MAX_FONT_FACES = 20;

const text = (max: number) => z.string().max(max).check(wellFormed());
const color = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, "expected a color such as #346DDB");
const themedColor = z.object({ light: color, dark: color });
const themedUrl = z.object({ light: httpUrl(), dark: httpUrl() });
const list = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_CUSTOMIZATION_LINKS);
const id = z.string().min(1).max(MAX_ID_LENGTH);

const theme = z.enum(["clean", "muted", "bold", "gradient"]);
const corners = z.enum(["straight", "rounded", "circular"]);
const depth = z.enum(["subtle", "flat"]);
const linksStyle = z.enum(["default", "accent"]);
const background = z.enum(["plain", "match"]);
const iconsStyle = z.enum(["regular", "solid", "duotone", "light", "thin"]);
const sidebarBackground = z.enum(["default", "filled"]);
const sidebarList = z.enum(["default", "pill", "line"]);
const searchStyle = z.enum(["prominent", "subtle"]);
const locale = z.enum(["en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru"]);
const headerPreset = z.enum(["default", "bold", "contrast", "custom", "none"]);
const themeMode = z.enum(["light", "dark"]);
const aiMode = z.enum(["none", "search", "assistant"]);
const externalLinksTarget = z.enum(["self", "blank"]);
const tint = z.object({ color: themedColor });

const fontDefinition = z.object({
  id,
  custom: z.boolean(),
  fontFamily: z.string().min(1).max(50).check(wellFormed()),
  fontFaces: z
    .array(
      z.object({
        weight: z.number().int().min(1).max(1000),
        sources: z
          .array(z.object({ url: httpUrl(), format: z.enum(["woff2", "woff"]).optional() }))
          .min(1)
          .max(MAX_FONT_FACES),
      }),
    )
    .min(1)
    .max(MAX_FONT_FACES),
});
const font = z.union([
  z.enum([
    "ABCFavorit",
    "Inter",
    "Roboto",
    "RobotoSlab",
    "OpenSans",
    "SourceSansPro",
    "Lato",
    "Ubuntu",
    "Raleway",
    "Merriweather",
    "Overpass",
    "NotoSans",
    "IBMPlexSerif",
    "Poppins",
    "FiraSans",
  ]),
  fontDefinition,
]);
const monospaceFont = z.union([
  z.enum([
    "FiraCode",
    "IBMPlexMono",
    "JetBrainsMono",
    "SourceCodePro",
    "RobotoMono",
    "SpaceMono",
    "DMMono",
    "Inconsolata",
  ]),
  fontDefinition,
]);

/** An icon (light and dark), an emoji, or neither (`{}`). */
const favicon = z.union([
  z.object({ icon: themedUrl }),
  z.object({ emoji: z.string().min(1).max(50).check(wellFormed()) }),
  z.strictObject({}),
]);

/** The reference's `ContentRef`: where a header, footer or announcement link leads. */
const contentRef = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("file"), file: id }),
  z.object({ kind: z.literal("url"), url: httpUrl() }),
  z.object({ kind: z.literal("page"), page: id, space: id.optional() }),
  z.object({
    kind: z.literal("anchor"),
    anchor: text(MAX_URL_LENGTH),
    space: id.optional(),
    page: id.optional(),
  }),
  z.object({ kind: z.literal("user"), user: id }),
  z.object({ kind: z.literal("collection"), collection: id }),
  z.object({ kind: z.literal("space"), space: id }),
  z.object({ kind: z.literal("reusable-content"), reusableContent: id, space: id.optional() }),
  z.object({ kind: z.literal("openapi"), spec: id }),
]);
const contentLink = z.object({ title: text(64), to: contentRef });
const headerItem = z.object({
  title: text(128),
  style: z.enum(["link", "button-primary", "button-secondary"]).optional(),
  to: contentRef.nullable(),
  links: list(contentLink),
  condition: conditionText.optional(),
});
const footerGroup = z.object({ title: text(128), links: list(contentLink) });
const announcement = z.object({
  enabled: z.boolean(),
  message: z.string().min(2).max(128).check(wellFormed()),
  link: contentLink.optional(),
  style: z.enum(["info", "warning", "danger", "success"]),
});
const enabled = z.object({ enabled: z.boolean() });

export const siteCustomizationSchema = z.object({
  title: siteTitle.optional(),
  styling: z.object({
    theme,
    primaryColor: themedColor,
    tint: tint.optional(),
    infoColor: themedColor,
    successColor: themedColor,
    warningColor: themedColor,
    dangerColor: themedColor,
    corners,
    depth,
    links: linksStyle,
    font,
    monospaceFont,
    background,
    icons: iconsStyle,
    sidebar: z.object({ background: sidebarBackground, list: sidebarList }),
    search: searchStyle,
  }),
  internationalization: z.object({ locale }),
  favicon,
  header: z.object({
    preset: headerPreset,
    logo: themedUrl.optional(),
    backgroundColor: themedColor.optional(),
    linkColor: themedColor.optional(),
    links: list(headerItem),
  }),
  footer: z.object({
    logo: themedUrl.optional(),
    groups: list(footerGroup),
    copyright: text(300).optional(),
  }),
  announcement: announcement.optional(),
  themes: z.object({ default: themeMode, toggeable: z.boolean() }),
  pdf: enabled,
  feedback: enabled,
  ai: z.object({ mode: aiMode }),
  advancedCustomization: enabled,
  git: z.object({ showEditLink: z.boolean() }),
  pageActions: z.object({ externalAI: z.boolean(), markdown: z.boolean(), mcp: z.boolean() }),
  externalLinks: z.object({ target: externalLinksTarget }),
  pagination: enabled,
  trademark: enabled,
  privacyPolicy: z.object({ url: httpUrl().optional() }),
  socialPreview: z.object({ url: httpUrl().optional() }),
  insights: z.object({ trackingCookie: z.boolean() }),
});
export type SiteCustomization = z.infer<typeof siteCustomizationSchema>;

/** A member of an override: a value, or null to drop the override of that member. */
const reset = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const enabledOverride = z.object({ enabled: z.boolean().nullable() });

/**
 * The body of `overrideSiteSpaceCustomizationById`: the reference's members a site space may
 * override, each optional (left as it is) or null (its override dropped, the site's value shows
 * again). `title: null` is the exception, as in the reference: the site space shows no title.
 */
export const siteSpaceCustomizationOverrideSchema = z.object({
  title: siteTitle.nullable().optional(),
  styling: z
    .object({
      theme: reset(theme),
      primaryColor: reset(themedColor),
      infoColor: reset(themedColor),
      successColor: reset(themedColor),
      warningColor: reset(themedColor),
      dangerColor: reset(themedColor),
      tint: reset(tint),
      corners: reset(corners),
      depth: reset(depth),
      links: reset(linksStyle),
      icons: reset(iconsStyle),
      sidebar: z.object({ background: reset(sidebarBackground), list: reset(sidebarList) }).optional(),
      search: reset(searchStyle),
      background: reset(background),
    })
    .optional(),
  internationalization: z.object({ locale: locale.nullable() }).optional(),
  favicon: reset(favicon),
  announcement: announcement.optional(),
  header: z
    .object({
      preset: reset(headerPreset),
      logo: reset(themedUrl),
      backgroundColor: reset(themedColor),
      linkColor: reset(themedColor),
      links: reset(list(headerItem)),
    })
    .optional(),
  footer: z
    .object({
      logo: reset(themedUrl),
      groups: reset(list(footerGroup)),
      copyright: reset(text(300)),
    })
    .optional(),
  themes: z.object({ default: reset(themeMode), toggeable: reset(z.boolean()) }).optional(),
  pdf: enabledOverride.optional(),
  feedback: enabledOverride.optional(),
  git: z.object({ showEditLink: z.boolean().nullable() }).optional(),
  externalLinks: z.object({ target: externalLinksTarget.nullable() }).optional(),
  pagination: enabledOverride.optional(),
  trademark: enabledOverride.optional(),
  privacyPolicy: z.object({ url: reset(httpUrl()) }).optional(),
  socialPreview: z.object({ url: reset(httpUrl()) }).optional(),
});
export type SiteSpaceCustomizationOverride = z.infer<typeof siteSpaceCustomizationOverrideSchema>;
