import { defineModule } from "../module.js";
import type { IndexValue, WriteTransaction } from "../storage/port.js";
import { grantOperations } from "./operations.js";
import { grantCounts, grantsTable } from "./tables.js";
import { aggregateOperations } from "./aggregates.js";

/** Deletes the grants of one range of an index of the grants table. */
async function dropGrants(
  tx: WriteTransaction,
  index: "byObject" | "byGrantee",
  where: readonly IndexValue[],
): Promise<void> {
  for (const grant of await tx.list(grantsTable, { index, where })) await tx.delete(grantsTable, grant.key);
}

/**
 * Roles granted to a user or a team on one space or one collection (docs/permissions.md). A grant
 * goes in the same transaction as its object (a purged space, a deleted collection), its user's
 * membership of the organization, or its team.
 */
export const grantsModule = defineModule({
  name: "grants",
  tables: [grantsTable],
  operations: { ...grantOperations, ...aggregateOperations },
  counts: grantCounts,
  hooks: {
    purgeSpace: (tx, _world, space) => dropGrants(tx, "byObject", [space.id]),
    collectionDeleted: (tx, _world, collection) => dropGrants(tx, "byObject", [collection.id]),
    memberRemoved: (tx, _world, member) =>
      dropGrants(tx, "byGrantee", [member.organization, "user", member.user]),
    teamRemoved: (tx, _world, team) => dropGrants(tx, "byGrantee", [team.organization, "team", team.id]),
    contentTransferred: (tx, _world, content) => dropGrants(tx, "byObject", [content.id]),
  },
});
