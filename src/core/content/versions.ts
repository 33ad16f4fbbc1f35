import { generateKeyBetween } from "fractional-indexing";
import { imageSize } from "image-size";
import type * as z from "zod";
import {
  type BlobRecord,
  type FileVersionRecord,
  type PageVersionRecord,
  blobsTable,
} from "../content-tree/tables.js";
import type { Revision } from "../content-tree/revisions.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import type { uploadFileBody } from "./write-bodies.js";

/**
 * What the content writes (writes.ts) and a push of a change request (change-requests/pushes.ts)
 * both build: positions at the end of a parent's children, a page's optional fields, and file
 * versions whose bytes are stored once per content hash.
 */

/** A position after the last child of `parent` ("" for the root) in `content`. */
export const endOf = async (content: Revision, parent: string) =>
  generateKeyBetween((await content.lastChild(parent))?.position ?? null, null);

/** The optional fields of a page version, present only when set (a version holds no `undefined`). */
export function optionalPageFields(fields: {
  readonly emoji?: string | undefined;
  readonly description?: string | undefined;
  readonly variables?: Record<string, string> | undefined;
}): Pick<PageVersionRecord, "emoji" | "description" | "variables"> {
  return {
    ...(fields.emoji ? { emoji: fields.emoji } : {}),
    ...(fields.description ? { description: fields.description } : {}),
    ...(fields.variables ? { variables: fields.variables } : {}),
  };
}

/**
 * A new version of the file `file` (a new file when absent) holding `upload`'s bytes, whose blob
 * is written unless one with the same SHA-256 exists. The version itself is written by the commit.
 */
export async function fileVersionOf(
  tx: WriteTransaction,
  world: Pick<World, "ids" | "clock">,
  upload: z.output<typeof uploadFileBody>,
  file?: string,
): Promise<FileVersionRecord> {
  // The version's id first, then a new file's: the order ids are drawn in (fixtures give ids).
  const id = world.ids();
  const fileId = file ?? world.ids();
  const bytes = Uint8Array.from(atob(upload.data), (char) => char.charCodeAt(0));
  // Storage adapters allow awaiting a digest inside a transaction (see the IndexedDB adapter).
  const hash = await sha256(bytes);
  if (!(await tx.get(blobsTable, hash))) {
    const blob: BlobRecord = { hash, data: upload.data, size: bytes.length };
    await tx.put(blobsTable, blob);
  }
  const dimensions = upload.contentType.startsWith("image/") ? measure(bytes) : undefined;
  return {
    id,
    file: fileId,
    name: upload.name,
    contentType: upload.contentType,
    blob: hash,
    size: bytes.length,
    ...(dimensions ? { dimensions } : {}),
    createdAt: world.clock().toISOString(),
  };
}

/** Image dimensions from the bytes, or undefined for formats image-size does not know. */
function measure(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/** The SHA-256 of the bytes, hex. */
export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
