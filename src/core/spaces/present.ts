import { contentRole, type Membership } from "../permissions/membership.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { spacePermissions } from "./permissions.js";
import type { Space, SpacePermissions } from "./schemas.js";
import type { SpaceRecord } from "./tables.js";

/** The space as this member sees it: their permissions on it, then {@link presentSpaceWith}. */
export async function presentSpace(
  tx: ReadTransaction,
  world: World,
  membership: Membership,
  space: SpaceRecord,
): Promise<Space> {
  const role = await contentRole(tx, membership, space);
  return presentSpaceWith(world, space, spacePermissions(role, space));
}

/** The space as a caller holding `permissions` sees it (an access rule computed them already). */
export function presentSpaceWith(world: World, record: SpaceRecord, permissions: SpacePermissions): Space {
  return {
    object: "space",
    id: record.id,
    title: record.title,
    emoji: record.emoji,
    visibility: record.visibility,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.deletedAt ? { deletedAt: record.deletedAt } : {}),
    editMode: record.editMode,
    mergeRules: record.mergeRules as Space["mergeRules"],
    urls: {
      location: `${world.baseUrl}/v1/spaces/${record.id}`,
      app: `${world.appUrl}/s/${record.id}`,
    },
    organization: record.organization,
    ...(record.parent ? { parent: record.parent } : {}),
    ...(record.language ? { language: record.language } : {}),
    revision: record.revision,
    defaultLevel: record.defaultLevel,
    comments: record.counters.comments,
    changeRequests: record.counters.changeRequests,
    changeRequestsOpen: record.counters.changeRequestsOpen,
    changeRequestsDraft: record.counters.changeRequestsDraft,
    permissions,
  };
}
