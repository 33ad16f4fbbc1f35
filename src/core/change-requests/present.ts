import type { World } from "../shared/world.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { UserPresenter } from "../users/present.js";
import { changeRequestLocation, isOutdated, type ChangeRequest } from "./schemas.js";
import type { ChangeRequestRecord } from "./tables.js";

/**
 * The change request, with its creator and whether it is outdated against the space's current
 * revision. A list passes one `users` for all its items, so that each creator is read once.
 */
export async function presentChangeRequest(
  tx: ReadTransaction,
  world: World,
  record: ChangeRequestRecord,
  space: Pick<SpaceRecord, "revision">,
  users: UserPresenter = new UserPresenter(tx, world),
): Promise<ChangeRequest> {
  return {
    object: "change-request",
    id: record.id,
    number: record.number,
    status: record.status,
    subject: record.subject,
    ...(record.description ? { description: record.description } : {}),
    createdBy: await users.presentUser(record.createdBy),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    space: record.space,
    revision: record.revision,
    revisionInitial: record.revisionInitial,
    ...(record.revisionMergedAncestor ? { revisionMergedAncestor: record.revisionMergedAncestor } : {}),
    ...(record.revisionMerged ? { revisionMerged: record.revisionMerged } : {}),
    comments: record.comments,
    outdated: isOutdated(record, space),
    ...(record.conversationsIssuesCluster
      ? { conversationsIssuesCluster: record.conversationsIssuesCluster }
      : {}),
    urls: {
      app: `${world.appUrl}/s/${record.space}/~/changes/${record.number}`,
      location: changeRequestLocation(world, record),
    },
  };
}
