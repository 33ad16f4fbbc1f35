/**
 * `docsbase/sync`: a local docsbase as a replica of spaces of a remote docsbase, edited offline and
 * pushed back as change requests. Imports nothing runtime-specific: it runs in pages, workers,
 * service workers, Node, Deno and Bun, and talks to the remote only with `fetch`. See docs/offline.md.
 *
 * @module
 */
export { createReplica } from "./replica.js";
export type { PullResult, PushResult, Replica, ReplicaOptions, ReplicaStatus, Resolution } from "./types.js";
export type { ReplicaEventMap } from "./events.js";
export type { PendingChanges } from "./local.js";
export { RemoteError, ReplicaOfflineError } from "./remote.js";
export type { MergeConflict } from "../core/content-tree/merge.js";
export {
  serveReplica,
  SYNC_TAG,
  type ReplicaEventName,
  type ReplicaMessage,
  type ReplicaRequest,
  type ServedReplica,
  type ServedReplicaHandle,
  type ServeReplicaOptions,
  type ServiceWorkerScope,
  type SyncTrigger,
  type WorkerExtendableEvent,
  type WorkerFetchEvent,
  type WorkerMessageEvent,
  type WorkerSyncEvent,
} from "./service-worker.js";
