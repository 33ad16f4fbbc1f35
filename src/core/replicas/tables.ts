import * as z from "zod";
import { defineTable } from "../storage/table.js";

/**
 * The state of `docsbase/sync` replicas (src/sync), kept in the replica's own storage so that it
 * survives restarts with the content it describes, and is written in the same transaction as the
 * local revisions it names (a pull records its remote revision and the local revisions holding it
 * atomically). Tables rather than one opaque document: every adapter already stores tables, and
 * a space's state is one small record read and written by key.
 */

/** One remote server a local docsbase replicates from: who the replica's user is there and here. */
export const replicaOriginRecord = z.object({
  /** The remote's base URL, without `/v1`. */
  remote: z.string(),
  /** The user's id, the same on the remote and locally. */
  user: z.string(),
  /**
   * SHA-256 of the remote token that user was learnt from (hashed as docsbase stores tokens): another
   * token asks the remote again who it belongs to.
   */
  remoteToken: z.string(),
  /**
   * The user's token on the LOCAL docsbase (for the local handler or a service worker). Kept in
   * clear because the app needs it back after a restart; it opens only this local storage, which
   * whoever reads the record already holds.
   */
  localToken: z.string(),
  createdAt: z.string(),
});
export type ReplicaOriginRecord = z.infer<typeof replicaOriginRecord>;

export const replicaOriginsTable = defineTable({
  name: "replicaOrigins",
  key: "remote",
  indexes: {},
  record: replicaOriginRecord,
});

export const replicaConflict = z.union([
  z.object({ page: z.string(), reason: z.string() }),
  z.object({ file: z.string(), reason: z.string() }),
  z.object({ reusableContent: z.string(), reason: z.string() }),
]);

/** The change request a replica's pushes opened on the remote, as last seen. */
export const replicaChangeRequest = z.object({
  id: z.string(),
  number: z.number(),
  status: z.enum(["draft", "open", "merged", "archived"]),
  url: z.string(),
  result: z.enum(["update", "conflicts"]).optional(),
  conflicts: z.array(replicaConflict).optional(),
});

/** One replicated space. Local revision ids name revisions of the local space of the same id. */
export const replicaSpaceRecord = z.object({
  space: z.string(),
  remote: z.string(),
  /** The remote revision last pulled. */
  remoteRevision: z.string(),
  pulledAt: z.string(),
  /** The local revision holding exactly the content of `remoteRevision`. */
  mirror: z.string(),
  /**
   * The local revision the pending changes are counted from: `mirror` with the changes pushed into
   * the open change request. Pending = diff(`pushed`, the local space's current revision).
   */
  pushed: z.string(),
  /** How many pages `remoteRevision` holds. */
  pageCount: z.number(),
  /**
   * The remote revision pending work is pushed against when a pull had to keep local versions over
   * colliding remote ones (src/sync/local.ts, `rebase`): the revision that work was written on, so
   * the server's update sees both sides and reports the conflict. Absent: `remoteRevision`.
   */
  pendingBase: z.string().optional(),
  /** Remote file id → the `downloadURL` of the version pulled (a new URL is a new version). */
  files: z.record(z.string(), z.string()),
  /**
   * The push in flight, stored before its request is sent: a retry sends the same id and body, so
   * the server recognises it. `head` is the local revision it covers.
   */
  push: z.object({ id: z.string(), head: z.string(), body: z.string() }).optional(),
  changeRequest: replicaChangeRequest.optional(),
});
export type ReplicaSpaceRecord = z.infer<typeof replicaSpaceRecord>;

export const replicaSpacesTable = defineTable({
  name: "replicaSpaces",
  key: "space",
  indexes: { byRemote: ["remote", "space"] },
  record: replicaSpaceRecord,
});
