import type { Client } from "../core/client.js";
import type { MergeConflict } from "../core/content-tree/merge.js";
import type { Operations } from "../core/operations.js";
import type { Docsbase } from "../docsbase.js";
import type { ReplicaEventMap } from "./events.js";
import type { PendingChanges } from "./local.js";

/** The public shapes of `docsbase/sync` (docs/offline.md). */

export interface ReplicaOptions {
  /** The local docsbase the replica lives in (IndexedDB in a browser, any storage elsewhere). */
  readonly docsbase: Docsbase;
  /** The remote server's base URL, without `/v1`. */
  readonly remote: string;
  /** The user's API token on the remote. */
  readonly token: string;
  /** Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Requests in flight at once while pulling pages and files. Default 8. */
  readonly concurrency?: number;
}

/** What a pull did. */
export interface PullResult {
  readonly space: string;
  /** The remote revision the replica now holds. */
  readonly revision: string;
  /** False when the remote revision was the one pulled before: nothing but that check was sent. */
  readonly changed: boolean;
  /** How many pages and files the remote revision holds. */
  readonly pages: number;
  readonly files: number;
}

/** The change request a push opened or extended, and the outcome of its update from the space. */
export interface PushResult {
  readonly changeRequest: { readonly id: string; readonly number: number; readonly url: string };
  readonly result: "update" | "conflicts";
  readonly conflicts?: MergeConflict[];
}

/** A replicated space as the app sees it. */
export interface ReplicaStatus {
  readonly space: string;
  readonly remoteRevision: string;
  readonly pulledAt: string;
  /** Local changes not yet pushed. */
  readonly pending: PendingChanges;
  readonly changeRequest?: {
    readonly id: string;
    readonly number: number;
    readonly status: "draft" | "open" | "merged" | "archived";
    readonly result?: "update" | "conflicts";
    readonly conflicts?: MergeConflict[];
    readonly url: string;
  };
}

/** Which side a conflicting page or file takes: the change request's version or the space's. */
export type Resolution = "changeRequest" | "space";

export interface Replica {
  /** The local user: the remote user's id, reading and writing the replica. */
  readonly user: string;
  /** An API token of that user on the local docsbase (for the local handler, a service worker). */
  readonly token: string;
  /** The typed in-process client of the local docsbase, acting as the local user. */
  readonly client: Client<Operations>;
  /** Whether the last contact with the remote succeeded. */
  readonly online: boolean;
  /**
   * Brings the space's remote revision into the local space. Local work not yet pushed is rebased
   * on it (a three-way merge), never lost; a remote revision already pulled costs one request.
   */
  pull(space: string): Promise<PullResult>;
  /**
   * Sends the pending changes as one change request (or adds them to the one open), then updates
   * it from the space; undefined when nothing is pending. Throws {@link ReplicaOfflineError} when
   * the remote did not answer: the next push retries the same push, which the server recognises.
   */
  push(space: string, options?: { readonly subject?: string }): Promise<PushResult | undefined>;
  /** Updates the change request again, taking a side for each conflicting page or file. */
  resolve(
    space: string,
    resolutions: {
      readonly pages?: Record<string, Resolution>;
      readonly files?: Record<string, Resolution>;
    },
  ): Promise<PushResult>;
  status(space: string): Promise<ReplicaStatus>;
  /** The status of every replicated space of this remote. */
  spaces(): Promise<ReplicaStatus[]>;
  /** Pushes then pulls every replicated space; resolves without throwing when offline. */
  sync(): Promise<ReplicaStatus[]>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends keyof ReplicaEventMap>(event: E, listener: (payload: ReplicaEventMap[E]) => void): () => void;
}
