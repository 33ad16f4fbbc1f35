import type { World } from "../shared/world.js";
import { type FileVersionRecord, blobsTable, fileVersionsTable } from "../content-tree/tables.js";

/**
 * The base of download URLs (`downloadURL`, PDF exports): `downloadBaseUrl` when the host serves
 * downloads from an origin of their own, else `baseUrl`.
 */
export const downloadBase = (world: World): string => world.downloadBaseUrl ?? world.baseUrl;

/**
 * The bytes behind a file's `downloadURL`. The URL names the file version, whose id is random and
 * never reused, so knowing it is the capability to read it: browsers can load images without a
 * bearer token, as with the signed storage URLs of hosted platforms. Versions are immutable, so the
 * answer may be cached forever. How the bytes are served (type, disposition, sandbox) is decided
 * by `src/http/downloads.ts`.
 */
export async function readDownload(
  world: World,
  versionId: string,
): Promise<{ version: FileVersionRecord; bytes: Uint8Array<ArrayBuffer> } | undefined> {
  return world.storage.read(async (tx) => {
    const version = await tx.get(fileVersionsTable, versionId);
    if (!version) return undefined;
    const blob = await tx.get(blobsTable, version.blob);
    if (!blob) return undefined;
    return { version, bytes: Uint8Array.from(atob(blob.data), (char) => char.charCodeAt(0)) };
  });
}
