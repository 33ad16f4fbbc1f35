import { readDownload } from "../core/content/download.js";
import { readExport } from "../core/exports/pdf.js";
import { readIntegrationAsset } from "../core/integrations/assets.js";
import type { World } from "../core/shared/world.js";
import { decodeSegment } from "./paths.js";
import type { ExtraRoute } from "./handler.js";
import { errorAnswer } from "./status.js";

/**
 * The download routes, outside the registry: file bytes (`GET /v1/files/{versionId}/{name}`, a
 * file's `downloadURL`), PDF exports (`GET /v1/exports/{file}`) and integration images
 * (`GET /v1/integrations/{integrationName}/assets/{key}/{file}`, an integration's `urls.icon` and
 * `previewImages`). All are capability URLs
 * readable without a token, so a browser may open them from any page; what an upload holds is
 * chosen by whoever could upload it. Every answer is therefore served so that no byte of it can
 * run as script or render as a document in the origin serving it (docs/api.md, "Downloads"):
 *
 * - `Content-Security-Policy: sandbox; default-src 'none'`: were the bytes ever rendered as a
 *   document, it would have an opaque origin, no script and no subresource.
 * - `X-Content-Type-Options: nosniff`: the browser keeps to the type sent, never guessing HTML.
 * - `Content-Disposition: inline` only for the raster image types of {@link INLINE_TYPES} (and for
 *   PDFs when `inlinePdf` is set); `attachment` for everything else, since an allow-list fails
 *   safe on types nobody thought of where a deny-list of HTML, SVG, XML... would not.
 * - The declared type is sent, except for types a page could load from this origin as script or
 *   style whatever the disposition says ({@link ACTIVE_TYPES}), sent as `application/octet-stream`.
 */
export interface DownloadOptions {
  /** The world whose storage holds files and exports. */
  readonly world: World;
  /** Resolves once storage is initialized. */
  readonly ready: () => Promise<unknown>;
  /** Show PDFs (files and exports) inline rather than as attachments. Default `false`. */
  readonly inlinePdf?: boolean;
}

/** The policy sent with every download. */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'";

/**
 * Raster image types shown inline: a browser only ever decodes them into pixels, in an `<img>` or
 * at the top level, never into a document or a script.
 */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "image/x-icon",
  "image/vnd.microsoft.icon",
]);

/**
 * Types a page of this origin could load as a script (`<script src>`, a worker, a service worker)
 * or a style sheet: Content-Disposition does not apply to such loads, and a host's
 * `script-src 'self'` would trust them. The JavaScript MIME types are those of the WHATWG MIME
 * Sniffing standard, the only ones browsers run.
 */
export const ACTIVE_TYPES: ReadonlySet<string> = new Set([
  "application/ecmascript",
  "application/javascript",
  "application/x-ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/javascript",
  "text/javascript1.0",
  "text/javascript1.1",
  "text/javascript1.2",
  "text/javascript1.3",
  "text/javascript1.4",
  "text/javascript1.5",
  "text/jscript",
  "text/livescript",
  "text/x-ecmascript",
  "text/x-javascript",
  "text/css",
]);

const OCTET_STREAM = "application/octet-stream";

/**
 * The download routes, for the handler's `extraRoutes`.
 *
 * @example
 * createHandler({ ..., extraRoutes: downloadRoutes({ world, ready, inlinePdf: false }) });
 */
export function downloadRoutes(options: DownloadOptions): ExtraRoute[] {
  const inlinePdf = options.inlinePdf ?? false;
  return [
    {
      method: "get",
      path: "/files/{versionId}/{name}",
      async handle(params) {
        const versionId = decodeSegment("versionId", params["versionId"] ?? "");
        // The name is cosmetic (the version id alone names the bytes) but must still be well formed.
        decodeSegment("name", params["name"] ?? "");
        await options.ready();
        const download = await readDownload(options.world, versionId);
        if (!download) return errorAnswer(404, "File not found");
        return {
          status: 200,
          headers: {
            ...downloadHeaders(download.version.name, download.version.contentType, { inlinePdf }),
            "content-length": String(download.bytes.byteLength),
            "cache-control": "private, max-age=31536000, immutable",
          },
          body: download.bytes,
        };
      },
    },
    {
      method: "get",
      path: "/integrations/{integrationName}/assets/{key}/{file}",
      async handle(params) {
        const name = decodeSegment("integrationName", params["integrationName"] ?? "");
        const key = decodeSegment("key", params["key"] ?? "");
        const file = decodeSegment("file", params["file"] ?? "");
        await options.ready();
        const asset = await readIntegrationAsset(options.world, name, key, file);
        if (!asset) return errorAnswer(404, "Integration image not found");
        return {
          status: 200,
          headers: {
            ...downloadHeaders(file, asset.contentType, { inlinePdf }),
            "content-length": String(asset.bytes.byteLength),
            // The key changes with every publish: the bytes behind one URL never do.
            "cache-control": "private, max-age=31536000, immutable",
          },
          body: asset.bytes,
        };
      },
    },
    {
      method: "get",
      path: "/exports/{file}",
      async handle(params) {
        const id = decodeSegment("file", params["file"] ?? "").replace(/\.pdf$/, "");
        await options.ready();
        const pdf = await readExport(options.world, id);
        if (!pdf) return errorAnswer(404, "Export not found or expired");
        return {
          status: 200,
          headers: {
            ...downloadHeaders(pdf.name, "application/pdf", { inlinePdf }),
            "content-length": String(pdf.bytes.byteLength),
          },
          body: pdf.bytes,
        };
      },
    },
  ];
}

/**
 * The type, disposition and protections of a download of `name`, stored with `declaredType`.
 *
 * @example
 * downloadHeaders("x.svg", "image/svg+xml", { inlinePdf: false });
 * // content-type image/svg+xml, content-disposition attachment; filename="x.svg", CSP sandbox...
 */
export function downloadHeaders(
  name: string,
  declaredType: string,
  options: { readonly inlinePdf: boolean },
): Record<string, string> {
  const type = mediaType(declaredType);
  const inline = INLINE_TYPES.has(type) || (options.inlinePdf && type === "application/pdf");
  return {
    "content-type": type === "" || ACTIVE_TYPES.has(type) ? OCTET_STREAM : type,
    "content-disposition": contentDisposition(inline ? "inline" : "attachment", name),
    "content-security-policy": DOWNLOAD_CSP,
    "x-content-type-options": "nosniff",
  };
}

/**
 * The essence of a media type (`type/subtype`, lower case, parameters dropped), or "" when it is
 * not one: uploads are checked, but a record may predate the check.
 */
function mediaType(declared: string): string {
  const essence = declared.split(";", 1)[0]!.trim().toLowerCase();
  return /^[\w.+-]+\/[\w.+-]+$/.test(essence) ? essence : "";
}

/**
 * A Content-Disposition value naming the file (RFC 6266): `filename` holds an ASCII stand-in
 * (other characters, quotes, backslashes and `%` become `_`), and `filename*` the exact name in
 * UTF-8 (RFC 8187) whenever the two differ.
 *
 * @example
 * contentDisposition("attachment", "résumé.pdf");
 * // attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf
 */
export function contentDisposition(disposition: "inline" | "attachment", name: string): string {
  // A lone surrogate has no UTF-8 form: names are checked at upload, older ones are repaired here.
  const text = name.replace(/\p{Cs}/gu, "\ufffd");
  const ascii = text.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const parameters = `${disposition}; filename="${ascii}"`;
  if (ascii === text) return parameters;
  const encoded = encodeURIComponent(text).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${parameters}; filename*=UTF-8''${encoded}`;
}
