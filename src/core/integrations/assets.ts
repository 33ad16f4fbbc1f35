import { downloadBase } from "../content/download.js";
import type { World } from "../shared/world.js";
import { integrationAssetsTable, integrationsTable, type IntegrationRecord } from "./tables.js";

/**
 * An integration's images (its icon, its preview images) are named and linked in what the API
 * answers, never inlined: a list of integrations is read by every user, and inlined images made
 * each item as large as its images (about 5.6 MB at the field limits).
 *
 * Each image has a URL under the integration's `urls.assets`:
 * `/v1/integrations/{name}/assets/{key}/icon` and `.../preview-{0,1,2}`, served by the download
 * routes (`src/http/downloads.ts`) without a token, so that a browser's `<img>` can load it. The
 * key is the capability: it is derived from the integration's signing secret (random, never
 * shown but to its owner's admins) and its version, so only those who may see the integration
 * learn it (a private integration's icon stays private), and it changes with every publish, so
 * the bytes behind one URL never change and may be cached forever.
 *
 * The images themselves are stored apart from the integration record (`integrationAssetsTable`),
 * and this file's download is the only reader of that table: presenting an integration needs only
 * the record's `images` counts.
 */

/** The file names of an integration's images under its assets key. */
export type IntegrationAssetFile = "icon" | `preview-${number}`;

/** The assets key of an integration's current version: 32 hex digits of a SHA-256. */
export async function integrationAssetsKey(integration: IntegrationRecord): Promise<string> {
  const text = `${integration.signingSecret}\nassets\n${integration.name}\n${integration.version}`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether an integration has an icon and how many preview images: its `images`, or, on a record
 * stored by an earlier version, its inline fields.
 */
export function integrationImages(integration: IntegrationRecord): { icon: boolean; previews: number } {
  return (
    integration.images ?? {
      icon: integration.icon !== undefined && integration.icon !== "",
      previews: integration.previewImages?.length ?? 0,
    }
  );
}

/** The URLs of an integration's icon (when it has one) and preview images, in order. */
export async function integrationAssetUrls(
  world: World,
  integration: IntegrationRecord,
): Promise<{ icon?: string; previewImages: string[] }> {
  const base = `${downloadBase(world)}/v1/integrations/${encodeURIComponent(integration.name)}/assets/${await integrationAssetsKey(integration)}`;
  const images = integrationImages(integration);
  return {
    ...(images.icon ? { icon: `${base}/icon` } : {}),
    previewImages: Array.from({ length: images.previews }, (_, index) => `${base}/preview-${index}`),
  };
}

/**
 * The bytes and image type behind an asset URL, or undefined when the integration, the key (an
 * older version's, say) or the file does not exist.
 */
export async function readIntegrationAsset(
  world: World,
  name: string,
  key: string,
  file: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string } | undefined> {
  const integration = await world.storage.read((tx) => tx.get(integrationsTable, name));
  if (!integration || key !== (await integrationAssetsKey(integration))) return undefined;
  // A record stored by an earlier version holds its images inline, and has no `images`. The
  // version check drops an asset record a publish replaced between the two reads.
  const assets = integration.images
    ? await world.storage.read((tx) => tx.get(integrationAssetsTable, name))
    : integration;
  if (!assets || assets.version !== integration.version) return undefined;
  const base64 = file === "icon" ? assets.icon : previewOf(assets.previewImages ?? [], file);
  if (base64 === undefined) return undefined;
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return undefined; // Base64 characters of an impossible length: no image to serve.
  }
  return { bytes: Uint8Array.from(binary, (char) => char.charCodeAt(0)), contentType: imageType(base64) };
}

function previewOf(previews: readonly string[], file: string): string | undefined {
  const match = /^preview-([0-9])$/.exec(file);
  return match ? previews[Number(match[1])] : undefined;
}

/** The type of base64 image content, told from its first bytes (publishing checks only base64). */
export function imageType(base64: string): string {
  const prefix = base64.replace(/=+$/, "").slice(0, 16);
  let head = "";
  try {
    head = atob(prefix.slice(0, prefix.length - (prefix.length % 4)));
  } catch {
    // Not base64 after all: typed as unknown bytes below.
  }
  if (head.startsWith("\x89PNG")) return "image/png";
  if (head.startsWith("\xff\xd8")) return "image/jpeg";
  if (head.startsWith("GIF8")) return "image/gif";
  if (head.startsWith("RIFF")) return "image/webp";
  if (head.trimStart().startsWith("<")) return "image/svg+xml";
  return "application/octet-stream";
}
