import type { MergeConflict } from "../core/content-tree/merge.js";

/** The events of a replica and their payloads. */
export interface ReplicaEventMap {
  pulled: { readonly space: string; readonly revision: string; readonly changed: boolean };
  pushed: {
    readonly space: string;
    readonly changeRequest: { readonly id: string; readonly number: number; readonly url: string };
    readonly result: "update" | "conflicts";
  };
  conflict: {
    readonly space: string;
    readonly changeRequest: { readonly id: string; readonly number: number; readonly url: string };
    readonly conflicts: readonly MergeConflict[];
  };
  offline: { readonly error: Error };
  online: Record<string, never>;
}

/** A small typed emitter: a listener that throws does not stop the others or the replica. */
export class ReplicaEvents {
  private readonly listeners = new Map<keyof ReplicaEventMap, Set<(payload: never) => void>>();

  on<E extends keyof ReplicaEventMap>(event: E, listener: (payload: ReplicaEventMap[E]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<E extends keyof ReplicaEventMap>(event: E, payload: ReplicaEventMap[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (payload: ReplicaEventMap[E]) => void)(payload);
      } catch (error) {
        console.error(`docsbase/sync: a "${event}" listener failed`, error);
      }
    }
  }
}
