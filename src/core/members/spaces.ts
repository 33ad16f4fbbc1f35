import * as z from "zod";
import { inOrganization } from "../permissions/organization.js";
import { contentRole } from "../permissions/membership.js";
import { contentReachedBy, granteesOf } from "../permissions/visible.js";
import { defineOperation } from "../registry.js";
import { listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { memberRole } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import { presentSpace } from "../spaces/present.js";
import { spaceSchema } from "../spaces/schemas.js";
import type { SpaceRecord } from "../spaces/tables.js";
import { requireMember } from "./access.js";

/** The reference `MemberContentPermission`: a space and the member's resolved role on it. */
const memberContentPermissionSchema = z.object({ permission: memberRole, space: spaceSchema });

export const listSpacesForOrganizationMember = defineOperation({
  id: "listSpacesForOrganizationMember",
  method: "get",
  path: "/orgs/{organizationId}/members/{userId}/spaces",
  tag: "members",
  summary:
    "List the spaces a grant gives the member a role on (granted to them or their teams, on the " +
    "space or a collection above it), with their resolved role; a disabled member has none. By " +
    "creation date (`order`, newest first by default), then by space id.",
  params: z.object({ organizationId: pathParam(), userId: pathParam() }),
  access: inOrganization("listMembers"),
  query: z.object({ ...pageQuery, order: z.enum(["asc", "desc"]).default("desc") }),
  response: listOf(memberContentPermissionSchema),
  async run(scope, { params, query }) {
    const { tx, membership } = scope;
    const organization = membership.organization.id;
    const member = await requireMember(tx, organization, params.userId);
    const grantees = member.disabled ? [] : await granteesOf(tx, organization, member.user);
    const spaces = [...(await contentReachedBy(tx, organization, grantees)).spaces];
    const sign = query.order === "asc" ? 1 : -1;
    const time = (space: SpaceRecord) => sign * Date.parse(space.createdAt);
    spaces.sort((a, b) => time(a) - time(b) || (a.id < b.id ? -1 : 1));
    const page = paginateSorted(spaces, query, {
      scope: `member-spaces:${organization}:${member.user}:${query.order}`,
      position: (space) => [time(space), space.id],
    });
    const target = { ...membership, member, role: member.role };
    const items = await Promise.all(
      page.items.map(async (space) => ({
        // A grant reaches the space, so the resolution gives at least its role: never null.
        permission: (await contentRole(tx, target, space))!,
        space: await presentSpace(tx, scope, membership, space),
      })),
    );
    return { ...page, items };
  },
});
