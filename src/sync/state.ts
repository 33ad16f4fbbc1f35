import { generateKeyBetween } from "fractional-indexing";
import { insertMember } from "../core/members/records.js";
import { newOrganizationRecord, organizationsTable } from "../core/organizations/tables.js";
import {
  type ReplicaOriginRecord,
  type ReplicaSpaceRecord,
  replicaOriginsTable,
  replicaSpacesTable,
} from "../core/replicas/tables.js";
import { conflict } from "../core/shared/errors.js";
import type { World } from "../core/shared/world.js";
import { newSpaceRecord } from "../core/spaces/records.js";
import { spacesTable } from "../core/spaces/tables.js";
import type { ReadTransaction, WriteTransaction } from "../core/storage/port.js";
import { hashToken, newToken, storeToken } from "../core/users/tokens.js";
import { newUserRecord, usersTable } from "../core/users/tables.js";

/** The remote user as `getAuthenticatedUser` gives it. */
export interface RemoteUser {
  readonly id: string;
  readonly displayName: string;
  readonly email?: string;
}

/**
 * The replica's origin record for `remote`: made on first use with the remote user's id, and a
 * token of that user on the local docsbase.
 */
export async function ensureOrigin(
  tx: WriteTransaction,
  world: World,
  remote: string,
  user: RemoteUser,
  remoteToken: string,
): Promise<ReplicaOriginRecord> {
  const known = await tx.get(replicaOriginsTable, remote);
  if (known && known.user === user.id) {
    const updated = { ...known, remoteToken: hashToken(remoteToken) };
    await tx.put(replicaOriginsTable, updated);
    return updated;
  }
  if (!(await tx.get(usersTable, user.id))) {
    const email = user.email ?? `${user.id}@replica.invalid`;
    const record = newUserRecord(
      { id: user.id, displayName: user.displayName, email },
      world.clock().toISOString(),
    );
    await tx.put(usersTable, record);
  }
  // The spaces already replicated from this remote are this user's too on this device.
  for (const state of await tx.list(replicaSpacesTable, { index: "byRemote", where: [remote] })) {
    const space = await tx.get(spacesTable, state.space);
    if (space) await insertMember(tx, world, space.organization, user.id, "admin");
  }
  const localToken = newToken();
  await storeToken(tx, world, user.id, localToken, { label: `docsbase/sync replica of ${remote}` });
  const origin: ReplicaOriginRecord = {
    remote,
    user: user.id,
    remoteToken: hashToken(remoteToken),
    localToken,
    createdAt: world.clock().toISOString(),
  };
  await tx.put(replicaOriginsTable, origin);
  return origin;
}

/** The organization and space records of a first pull, with the remote's ids; the user its admin. */
export async function ensureLocalSpace(
  tx: WriteTransaction,
  world: World,
  user: string,
  remote: { readonly space: RemoteSpace; readonly organizationTitle: string },
  revision: string,
): Promise<void> {
  const { space } = remote;
  const now = world.clock().toISOString();
  if (!(await tx.get(organizationsTable, space.organization))) {
    const organization = newOrganizationRecord(space.organization, remote.organizationTitle, now, {
      defaultRole: null,
      inviteLinks: false,
    });
    await tx.put(organizationsTable, organization);
  }
  await insertMember(tx, world, space.organization, user, "admin");
  const existing = await tx.get(spacesTable, space.id);
  if (existing) {
    throw conflict(`space: a local space "${space.id}" exists already and is not a replica of this remote`);
  }
  const [last] = await tx.list(spacesTable, {
    index: "byOrganization",
    where: [space.organization, "live"],
    reverse: true,
    limit: 1,
  });
  const record = newSpaceRecord(
    world,
    space.id,
    {
      organization: space.organization,
      parent: "",
      position: generateKeyBetween(last?.position ?? null, null),
      title: space.title,
      emoji: space.emoji ?? "",
      visibility: "private",
      // Local edits are the point of a replica, whatever the remote's mode: the server judges the push.
      editMode: "live",
      defaultLevel: "inherit",
    },
    revision,
  );
  await tx.put(spacesTable, record);
}

/** A space as `getSpaceById` gives it (the fields the replica reads). */
export interface RemoteSpace {
  readonly id: string;
  readonly title: string;
  readonly emoji?: string;
  readonly organization: string;
  readonly revision: string;
}

export const readState = (tx: ReadTransaction, space: string) => tx.get(replicaSpacesTable, space);

export async function writeState(tx: WriteTransaction, state: ReplicaSpaceRecord): Promise<void> {
  await tx.put(replicaSpacesTable, state);
}

/** Moves the local space to a new head revision. */
export async function moveHead(tx: WriteTransaction, world: World, space: string, revision: string) {
  const record = await tx.get(spacesTable, space);
  if (!record) throw conflict(`space: the local space "${space}" is gone`);
  if (record.revision === revision) return;
  await tx.put(spacesTable, { ...record, revision, updatedAt: world.clock().toISOString() });
}
