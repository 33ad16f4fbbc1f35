import * as z from "zod";
import { onSpace } from "../spaces/access.js";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { afterTransaction, defineOperation, keyed } from "../registry.js";
import { httpUrl, pathParam } from "../shared/schema.js";
import type { FetchFunction } from "../net/outbound.js";
import { readPageMetadata } from "./html-metadata.js";

/**
 * The reference's `Embed` as docsbase answers it: always a `link` embed (the reference's `rich`
 * one carries a third party's HTML for the renderer to insert, and its `integration` one an
 * integration block, which docsbase does not run).
 */
export const embedSchema = z.object({
  type: z.literal("link"),
  title: z.string(),
  site: z.string(),
  icon: z.string().optional(),
});
export type Embed = z.infer<typeof embedSchema>;

const HTML_TYPES = ["text/html", "application/xhtml+xml"];

/**
 * The embed of `url`: its page fetched through `fetch` (the guarded outbound fetch, which refuses
 * private addresses and bounds the time and size), and its title, site name and icon read from
 * the HTML. A URL that cannot be fetched (refused, failing, not 2xx, not HTML) still gets a
 * link-only embed: the URL as title and its host as site. Never throws for the URL's sake.
 *
 * @example
 * ```ts
 * await embedOf(world.fetch, "https://example.com/guide");
 * // { type: "link", title: "The guide", site: "Example", icon: "https://example.com/favicon.png" }
 * ```
 */
export async function embedOf(fetch: FetchFunction, url: string): Promise<Embed> {
  const linkOnly: Embed = { type: "link", title: url, site: new URL(url).hostname };
  let response: Response;
  let html: string;
  try {
    response = await fetch(url, {
      headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1", "user-agent": "docsbase-embed" },
    });
    const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
    if (!response.ok || !HTML_TYPES.includes(type)) return linkOnly;
    html = await response.text();
  } catch {
    // Refused, unreachable, too slow or too large: what the embed shows is the link.
    return linkOnly;
  }
  const metadata = readPageMetadata(html, response.url || url);
  return {
    type: "link",
    title: metadata.title ?? linkOnly.title,
    site: metadata.site ?? linkOnly.site,
    ...(metadata.icon !== undefined ? { icon: metadata.icon } : {}),
  };
}

/**
 * `getEmbedByUrlInSpace`: the embed of a URL for a page of the space (docs/api.md, "Embeds").
 * Whoever reads the space may ask, a reader token of the space included. The page is fetched once
 * the access check's transaction has ended.
 */
const getEmbedByUrlInSpace = defineOperation({
  id: "getEmbedByUrlInSpace",
  method: "get",
  path: "/spaces/{spaceId}/embed",
  tag: "space-embeds",
  summary: "The embed of a URL: its page's title, site and icon, or a link-only embed",
  access: readableWithReaderToken(onSpace("view")),
  params: z.object({ spaceId: pathParam() }),
  query: z.object({ url: httpUrl() }),
  response: embedSchema,
  async run(scope, { query }) {
    return afterTransaction(() => embedOf(scope.fetch, query.url));
  },
});

export const embedOperations = keyed([getEmbedByUrlInSpace]);
