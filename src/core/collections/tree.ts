import type { ReadTransaction } from "../storage/port.js";
import { type CollectionRecord, collectionsTable } from "./tables.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";

export interface Subtree {
  /** The collection itself first, then its nested collections, parents before children. */
  readonly collections: CollectionRecord[];
  /** Every space under them, live or deleted. */
  readonly spaces: SpaceRecord[];
}

/** A collection with everything nested in it. */
export async function subtree(tx: ReadTransaction, root: CollectionRecord): Promise<Subtree> {
  const collections: CollectionRecord[] = [root];
  const spaces: SpaceRecord[] = [];
  for (let i = 0; i < collections.length; i++) {
    const { organization, id } = collections[i]!;
    collections.push(
      ...(await tx.list(collectionsTable, {
        index: "byParent",
        where: [organization, id],
      })),
    );
    for (const state of ["live", "deleted"]) {
      spaces.push(
        ...(await tx.list(spacesTable, {
          index: "byParent",
          where: [organization, id, state],
        })),
      );
    }
  }
  return { collections, spaces };
}

/** Whether collection `id` is `ancestor` or nested in it. */
export async function isWithin(tx: ReadTransaction, id: string, ancestor: string): Promise<boolean> {
  const visited = new Set<string>();
  let current: string | undefined = id;
  // The visited set guards against a corrupt cycle.
  while (current && !visited.has(current)) {
    if (current === ancestor) return true;
    visited.add(current);
    current = (await tx.get(collectionsTable, current))?.parent;
  }
  return false;
}
