import type { ReadTransaction } from "../storage/port.js";
import { type CollectionRecord, collectionsTable } from "../collections/tables.js";
import { type MemberRecord, membersTable } from "../members/tables.js";
import { type OrganizationRecord, organizationsTable } from "../organizations/tables.js";
import type { SpaceRecord } from "../spaces/tables.js";
import { type Grantee, grantKey, grantsTable } from "../grants/tables.js";
import { teamMembersTable } from "../teams/tables.js";
import { notFound, unauthorized } from "../shared/errors.js";
import { strongest, type DefaultLevel, type Role } from "../shared/roles.js";
import type { Caller, Context } from "../shared/world.js";
import { INSTALLATION_CALLER_PREFIX } from "../users/integration-token.js";
import { installationStanding } from "./installation.js";

/**
 * Who may do what.
 *
 * - A caller's organization role is their membership role; a guest member has `null`.
 * - On a collection or space, an organization admin is admin. Any other non-guest member gets the
 *   strongest of their organization role and the content's effective `defaultLevel`, which is the
 *   nearest level set on the content or its ancestor collections (`inherit` defers to the parent;
 *   `inherit` at the root and `null` grant nothing beyond the organization role).
 * - Grants to the member or their teams on the content or the collections above it raise that role
 *   (see {@link resolveRole}).
 * - Guests have no access to content unless it is granted to them or their teams explicitly.
 * - A non-member sees nothing of an organization: its objects answer 404, never 403.
 */

export function requireCaller(context: Context): Caller {
  if (!context.caller) throw unauthorized();
  return context.caller;
}

export interface Membership {
  readonly organization: OrganizationRecord;
  readonly member: MemberRecord;
  /** Organization-wide role; null for guests. */
  readonly role: Role | null;
}

export const memberKey = (organization: string, user: string) => `${organization}:${user}`;

/** The caller's membership of an organization, or undefined. */
export async function findMembership(
  tx: ReadTransaction,
  context: Context,
  organizationId: string,
): Promise<Membership | undefined> {
  const caller = requireCaller(context);
  if (caller.installation) {
    const standing = await installationStanding(tx, caller.installation, organizationId);
    return standing && installationMembership(standing.organization, caller.userId, standing.role, context);
  }
  const member = await tx.get(membersTable, memberKey(organizationId, caller.userId));
  if (!member || member.disabled) return undefined;
  const organization = await tx.get(organizationsTable, organizationId);
  if (!organization) return undefined;
  return { organization, member, role: member.role };
}

/**
 * The stand-in membership of an installation token (see `./installation.ts`): a member with the
 * role its integration's scopes give, that no member list holds.
 */
function installationMembership(
  organization: OrganizationRecord,
  user: string,
  role: Role,
  context: Context,
): Membership {
  const at = context.clock().toISOString();
  const member: MemberRecord = {
    key: memberKey(organization.id, user),
    organization: organization.id,
    user,
    seq: 0,
    role,
    joinedAt: at,
    seenAt: at,
    disabled: false,
    sso: false,
  };
  return { organization, member, role };
}

/** Like {@link findMembership}, answering 404 for a non-member (the organization stays hidden). */
export async function requireMembership(
  tx: ReadTransaction,
  context: Context,
  organizationId: string,
): Promise<Membership> {
  const membership = await findMembership(tx, context, organizationId);
  if (!membership) throw notFound(`Organization "${organizationId}" not found`);
  return membership;
}

/** The effective default level of content whose own level is `level` under collection `parent`. */
export async function effectiveDefaultLevel(
  tx: ReadTransaction,
  level: DefaultLevel,
  parent: string,
): Promise<Role | null> {
  let current = level;
  let next = parent;
  // Collections nest; the visited set guards against a corrupt cycle.
  const visited = new Set<string>();
  while (current === "inherit" && next && !visited.has(next)) {
    visited.add(next);
    const collection = await tx.get(collectionsTable, next);
    if (!collection) break;
    current = collection.defaultLevel;
    next = collection.parent;
  }
  return current === "inherit" ? null : current;
}

/**
 * Whether the member can view every collection and space of the organization. A non-guest's role
 * is at least `read` and default levels and grants only ever raise it (see {@link resolveRole}), so
 * their lists page their index by this one answer instead of checking each record: a page costs a
 * page and `count` stays a counter (docs/api.md, "Lists"). A guest sees exactly what was granted to
 * them or their teams, and what is inside a granted collection: their lists page through that set
 * ({@link visibleContent}), built from the grants index by grantee, never by filtering a range.
 */
export function viewsAllContent(membership: Membership): boolean {
  return membership.role !== null;
}

/** A space or collection, as a role is resolved on it: the object and the collection above it. */
export type Content = Pick<CollectionRecord | SpaceRecord, "id" | "defaultLevel" | "parent">;

/** Who a role is resolved for: a member's user and organization role (null for a guest). */
interface Resolved {
  readonly organization: string;
  readonly user: string;
  readonly role: Role | null;
}

/** The ids of the teams `user` is in, in `organization`: the grantees beside the user. */
export async function teamsOf(tx: ReadTransaction, organization: string, user: string): Promise<string[]> {
  const memberships = await tx.list(teamMembersTable, { index: "byMember", where: [organization, user] });
  return memberships.map((membership) => membership.team);
}

/**
 * The one resolution of a member's role on a space or collection
 * (docs/permissions.md): the strongest of
 *
 * - the organization role (an organization admin is admin everywhere, at once);
 * - the content's effective `defaultLevel` (the nearest level set on it or the collections above
 *   it; `inherit` at the root and `null` give nothing), for non-guests only;
 * - the grants to the user or to one of their teams on the content itself and on every collection
 *   above it (a collection's grants flow to everything inside it).
 *
 * A guest (organization role `null`) gets exactly what the grants give. The teams are read once;
 * then each object of the chain costs its record and one point read per grantee (`grantKey`), so
 * the cost follows the depth of the chain and the caller's teams, never the number of grants.
 */
async function resolveRole(tx: ReadTransaction, who: Resolved, content: Content): Promise<Role | null> {
  if (who.role === "admin") return "admin";
  // An installation token has the role its integration's scopes give, and nothing raises it.
  if (who.user.startsWith(INSTALLATION_CALLER_PREFIX)) return who.role;
  const teams = await teamsOf(tx, who.organization, who.user);
  const grantees: [Grantee, string][] = [
    ["user", who.user],
    ...teams.map((team): [Grantee, string] => ["team", team]),
  ];
  let best: Role | null = who.role;
  let level = content.defaultLevel;
  let current: Content | undefined = content;
  // Collections nest; the visited set guards against a corrupt cycle.
  const visited = new Set<string>();
  while (current && !visited.has(current.id)) {
    visited.add(current.id);
    const object = current.id;
    const grants = await Promise.all(
      grantees.map(([kind, id]) => tx.get(grantsTable, grantKey(object, kind, id))),
    );
    best = strongest(best, ...grants.map((grant) => grant?.role));
    if (best === "admin") return best;
    if (!current.parent) break;
    current = await tx.get(collectionsTable, current.parent);
    if (current && level === "inherit") level = current.defaultLevel;
  }
  return who.role === null ? best : strongest(best, level === "inherit" ? null : level);
}

/** The caller's role on a collection or space of their organization (see {@link resolveRole}). */
export async function contentRole(
  tx: ReadTransaction,
  membership: Membership,
  content: Content,
): Promise<Role | null> {
  return resolveRole(
    tx,
    { organization: membership.organization.id, user: membership.member.user, role: membership.role },
    content,
  );
}

/**
 * Another user's role on a collection or space of `organizationId` (see {@link resolveRole}): null
 * when they are not an enabled member of it.
 *
 * @example
 * ```ts
 * const role = await userContentRole(tx, space.organization, userId, space); // "edit"
 * ```
 */
export async function userContentRole(
  tx: ReadTransaction,
  organizationId: string,
  userId: string,
  content: Content,
): Promise<Role | null> {
  const member = await tx.get(membersTable, memberKey(organizationId, userId));
  if (!member || member.disabled) return null;
  return resolveRole(tx, { organization: organizationId, user: userId, role: member.role }, content);
}

/** How a member stands toward a collection or space: their membership and their role on it. */
export interface ContentStanding {
  readonly membership: Membership;
  /** The caller's role on the content (see `contentRole`). */
  readonly role: Role | null;
}

/**
 * The caller's standing toward `content` of `organization`, or toward the organization's content
 * in general (their organization role) without one; undefined for a non-member.
 */
export async function contentStanding(
  tx: ReadTransaction,
  context: Context,
  organization: string,
  content: Content | undefined,
): Promise<ContentStanding | undefined> {
  const membership = await findMembership(tx, context, organization);
  if (!membership) return undefined;
  return { membership, role: content ? await contentRole(tx, membership, content) : membership.role };
}
