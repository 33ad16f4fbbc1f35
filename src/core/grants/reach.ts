import { collectionsTable } from "../collections/tables.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { type Grantee, grantsTable } from "./tables.js";

/**
 * The live spaces of `organization` that grants to these grantees reach: the spaces granted
 * directly, and every space inside a granted collection, at any depth. Each space once, in no
 * particular order. This is where a grant gives a role, whatever the organization gives besides:
 * a guest's whole view of the content, a team's `spaces` count.
 *
 * It reads the grantees' grants (`byGrantee`) and the content under each granted collection, so
 * it costs what was granted, never the size of the organization.
 */
export async function grantedSpaces(
  tx: ReadTransaction,
  organization: string,
  grantees: readonly (readonly [Grantee, string])[],
): Promise<SpaceRecord[]> {
  const spaces = new Map<string, SpaceRecord>();
  const collections: string[] = [];
  for (const [kind, id] of grantees) {
    for (const grant of await tx.list(grantsTable, { index: "byGrantee", where: [organization, kind, id] })) {
      if (grant.target === "collection") collections.push(grant.object);
      else if (!spaces.has(grant.object)) {
        const space = await tx.get(spacesTable, grant.object);
        if (space?.state === "live" && space.organization === organization) spaces.set(space.id, space);
      }
    }
  }
  // Collections nest; the visited set reads each once and guards against a corrupt cycle.
  const visited = new Set<string>();
  for (let collection = collections.pop(); collection !== undefined; collection = collections.pop()) {
    if (visited.has(collection)) continue;
    visited.add(collection);
    const inside = await tx.list(spacesTable, {
      index: "byParent",
      where: [organization, collection, "live"],
    });
    for (const space of inside) spaces.set(space.id, space);
    const children = await tx.list(collectionsTable, {
      index: "byParent",
      where: [organization, collection],
    });
    collections.push(...children.map((child) => child.id));
  }
  return [...spaces.values()];
}
