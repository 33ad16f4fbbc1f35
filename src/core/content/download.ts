import type { World } from "../shared/world.js";
import { tables, type BlobRecord, type FileVersionRecord } from "../tables.js";

/**
 * The bytes behind a file's `downloadURL`. The URL names the file version, whose id is random and
 * never reused, so knowing it is the capability to read it: browsers can load images without a
 * bearer token, as with the signed storage URLs of hosted platforms. Versions are immutable, so the
 * answer may be cached forever.
 */
export async function readDownload(
  world: World,
  versionId: string,
): Promise<{ version: FileVersionRecord; bytes: Uint8Array<ArrayBuffer> } | undefined> {
  return world.storage.read(async (tx) => {
    const version = await tx.get<FileVersionRecord>(tables.fileVersions.name, versionId);
    if (!version) return undefined;
    const blob = await tx.get<BlobRecord>(tables.blobs.name, version.blob);
    if (!blob) return undefined;
    return { version, bytes: Uint8Array.from(atob(blob.data), (char) => char.charCodeAt(0)) };
  });
}
