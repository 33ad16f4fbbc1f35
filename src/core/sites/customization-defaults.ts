import type { SiteCustomization } from "./customization-schema.js";

/**
 * The customization settings of a site until its admins store their own (`updateSiteCustomizationById`):
 * what `getSiteCustomizationById` and published reads report. docsbase renders no site, so nothing
 * here changes behaviour: the values are what a reader-facing renderer starts from, and the object
 * carries every member that the reference's `SiteCustomizationSettings` requires, at every level.
 */

type ThemedColor = SiteCustomization["styling"]["primaryColor"];

// GitBook's own defaults (its `@gitbook/colors` package): a blue primary, a neutral gray for
// informational hints, and the usual green, amber and red. The same in both modes.
const same = (color: string): ThemedColor => ({ light: color, dark: color });

/**
 * A site's default customization settings, a new object on every call (callers may change it).
 *
 * The choices beyond GitBook's look: features docsbase does not provide are off (AI search and
 * assistant, feedback, advanced customization, external-AI and MCP page actions, the "Powered by
 * GitBook" trademark, git edit links); what it does provide is on (PDF export, the markdown page
 * action, page pagination). `title` is the site's title, left out when not given, as the reference
 * then falls back to the default content's title.
 *
 * @example
 * ```ts
 * const customizations = { site: defaultSiteCustomization(site.title), siteSpaces: {} };
 * ```
 */
export function defaultSiteCustomization(title?: string): SiteCustomization {
  return {
    ...(title === undefined ? {} : { title }),
    styling: {
      theme: "clean",
      primaryColor: same("#346DDB"),
      infoColor: same("#787878"),
      successColor: same("#00C950"),
      warningColor: same("#FE9A00"),
      dangerColor: same("#FB2C36"),
      corners: "rounded",
      depth: "subtle",
      links: "default",
      font: "Inter",
      monospaceFont: "IBMPlexMono",
      background: "plain",
      icons: "regular",
      sidebar: { background: "default", list: "default" },
      search: "prominent",
    },
    internationalization: { locale: "en" },
    // No icon and no emoji: the reference's third favicon shape, the empty object.
    favicon: {},
    header: { preset: "default", links: [] },
    footer: { groups: [] },
    themes: { default: "light", toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: "none" },
    advancedCustomization: { enabled: false },
    trademark: { enabled: false },
    externalLinks: { target: "self" },
    pagination: { enabled: true },
    pageActions: { externalAI: false, markdown: true, mcp: false },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}
