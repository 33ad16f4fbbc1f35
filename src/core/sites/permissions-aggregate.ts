import * as z from "zod";
import { byStrongestRole, type Holder, pageOfHolders } from "../grants/holders.js";
import { membersTable } from "../members/tables.js";
import { contentRole, type Membership } from "../permissions/membership.js";
import { defineOperation } from "../registry.js";
import { listOf, pageQuery } from "../shared/pagination.js";
import { memberRoleOrGuest, roleRank } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import { spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { UserPresenter } from "../users/present.js";
import { userSchema } from "../users/schemas.js";
import { onSite } from "./access.js";
import { type SiteRecord, siteSpacesTable } from "./tables.js";

/** Where a user's role on a site comes from: one of its spaces, or the organization. */
const originSchema = z.union([
  z.object({ type: z.literal("space"), space: z.string() }),
  z.object({ type: z.literal("organization"), organization: z.string() }),
]);
type Origin = z.infer<typeof originSchema>;

/** The reference `UserSitePermission`. */
const userSitePermissionSchema = z.object({
  permission: memberRoleOrGuest,
  user: userSchema,
  origin: originSchema,
});

interface SiteHolder extends Holder {
  readonly origin: Origin;
}

/**
 * Every enabled member's role on the site, with what gave it (docs/permissions.md, "A user's role
 * on a site"): the strongest of their organization role and their resolved role on each live space
 * the site publishes. On a tie the organization wins, then the first space in the site's order: a
 * space is named only when it gives more than the organization does. A guest appears only through
 * a space; a member with no role anywhere on the site is left out.
 */
async function siteHolders(
  tx: ReadTransaction,
  membership: Membership,
  site: SiteRecord,
): Promise<SiteHolder[]> {
  const organization = membership.organization.id;
  const spaces = [];
  const seen = new Set<string>();
  for (const siteSpace of await tx.list(siteSpacesTable, { index: "bySite", where: [site.id] })) {
    if (seen.has(siteSpace.space)) continue;
    seen.add(siteSpace.space);
    const space = await tx.get(spacesTable, siteSpace.space);
    if (space?.state === "live") spaces.push(space);
  }
  const holders: SiteHolder[] = [];
  for (const member of await tx.list(membersTable, { index: "byOrganization", where: [organization] })) {
    if (member.disabled) continue;
    let best: SiteHolder | undefined = member.role
      ? { member, role: member.role, origin: { type: "organization", organization } }
      : undefined;
    for (const space of spaces) {
      const role = await contentRole(tx, { ...membership, member, role: member.role }, space);
      if (role && (!best || roleRank(role) > roleRank(best.role))) {
        best = { member, role, origin: { type: "space", space: space.id } };
      }
    }
    if (best) holders.push(best);
  }
  return holders.sort(byStrongestRole);
}

export const listPermissionsAggregateInSite = defineOperation({
  id: "listPermissionsAggregateInSite",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/permissions/aggregate",
  tag: "site-users",
  summary:
    "List every user holding a role on the site (site admins): the strongest of their organization " +
    "role and their role on the site's spaces, with its origin. Strongest role first, then by user id.",
  access: onSite("admin"),
  params: z.object({ organizationId: pathParam(), siteId: pathParam() }),
  query: z.object({ ...pageQuery }),
  response: listOf(userSitePermissionSchema),
  async run(scope, { query }) {
    const { tx, membership, site } = scope;
    const page = pageOfHolders(await siteHolders(tx, membership, site), query, `site:${site.id}`);
    const users = new UserPresenter(tx, scope);
    const items = await Promise.all(
      page.items.map(async (holder) => ({
        permission: holder.role,
        user: await users.presentUser(holder.member.user),
        origin: holder.origin,
      })),
    );
    return { ...page, items };
  },
});
