import { contentRole, type Membership } from "../permissions/membership.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { collectionPermissions } from "./permissions.js";
import type { Collection } from "./schemas.js";
import type { CollectionRecord } from "./tables.js";

/** The collection as this member sees it, with their permissions on it (from their role there). */
export async function presentCollection(
  tx: ReadTransaction,
  world: World,
  membership: Membership,
  record: CollectionRecord,
): Promise<Collection> {
  const role = await contentRole(tx, membership, record);
  return {
    object: "collection",
    id: record.id,
    title: record.title,
    ...(record.description ? { description: record.description } : {}),
    organization: record.organization,
    ...(record.parent ? { parent: record.parent } : {}),
    defaultLevel: record.defaultLevel,
    urls: {
      location: `${world.baseUrl}/v1/collections/${record.id}`,
      app: `${world.appUrl}/c/${record.id}`,
    },
    permissions: collectionPermissions(role),
  };
}
