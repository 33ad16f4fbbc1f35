import { type Grantee, type GrantTarget, grantKey, grantsTable } from "../../src/core/grants/tables.js";
import type { Role } from "../../src/core/shared/roles.js";
import { nextSequence } from "../../src/core/shared/sequence.js";
import type { Storage } from "../../src/core/storage/port.js";

/** One grant to store: a role for a user or a team on a space or a collection. */
export interface GrantSpec {
  readonly organization: string;
  readonly target: GrantTarget;
  readonly object: string;
  readonly kind: Grantee;
  readonly grantee: string;
  readonly role: Role;
}

/**
 * Stores grants as the grant operations store them (one per object and grantee, replacing an
 * earlier one), for tests and benches of what reads grants: the resolution, the aggregates, the
 * lists. Written through the storage so that they do not depend on the grant operations.
 */
export async function storeGrants(storage: Storage, grants: readonly GrantSpec[]): Promise<void> {
  await storage.write(async (tx) => {
    for (const grant of grants) {
      await tx.put(grantsTable, {
        key: grantKey(grant.object, grant.kind, grant.grantee),
        organization: grant.organization,
        target: grant.target,
        object: grant.object,
        granteeKind: grant.kind,
        grantee: grant.grantee,
        role: grant.role,
        seq: await nextSequence(tx, grant.object),
        createdAt: "2025-01-01T00:00:00.000Z",
      });
    }
  });
}
