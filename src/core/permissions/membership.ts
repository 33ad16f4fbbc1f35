import type { ReadTransaction } from "../storage/port.js";
import { type CollectionRecord, collectionsTable } from "../collections/tables.js";
import { type MemberRecord, membersTable } from "../members/tables.js";
import { type OrganizationRecord, organizationsTable } from "../organizations/tables.js";
import type { SpaceRecord } from "../spaces/tables.js";
import { notFound, unauthorized } from "../shared/errors.js";
import { strongest, type DefaultLevel, type Role } from "../shared/roles.js";
import type { Caller, Context } from "../shared/world.js";

/**
 * Who may do what (DESIGN.md, "Permissions").
 *
 * - A caller's organization role is their membership role; a guest member has `null`.
 * - On a collection or space, an organization admin is admin. Any other non-guest member gets the
 *   strongest of their organization role and the content's effective `defaultLevel`, which is the
 *   nearest level set on the content or its ancestor collections (`inherit` defers to the parent;
 *   `inherit` at the root and `null` grant nothing beyond the organization role).
 * - Guests have no access to content unless it is granted to them explicitly.
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
  const member = await tx.get(membersTable, memberKey(organizationId, caller.userId));
  if (!member || member.disabled) return undefined;
  const organization = await tx.get(organizationsTable, organizationId);
  if (!organization) return undefined;
  return { organization, member, role: member.role };
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
 * Whether the member can view every collection and space of the organization, or none of them.
 * Visibility follows from the organization role alone: a non-guest's role is at least `read` and
 * default levels only ever raise it (see {@link contentRole}), and guests see nothing, per-content
 * grants not being modelled. Lists page their index by this one answer instead of checking each
 * record, so a page costs a page and `count` stays a counter (docs/api.md, "Lists"). Per-content
 * grants, when they come, need an index of the visible set by grantee, not a filter.
 */
export function viewsAllContent(membership: Membership): boolean {
  return membership.role !== null;
}

/** The caller's role on a collection or space of their organization. */
export async function contentRole(
  tx: ReadTransaction,
  membership: Membership,
  content: Pick<CollectionRecord | SpaceRecord, "defaultLevel" | "parent">,
): Promise<Role | null> {
  if (membership.role === "admin") return "admin";
  if (membership.role === null) return null;
  return strongest(membership.role, await effectiveDefaultLevel(tx, content.defaultLevel, content.parent));
}

/** How a member stands toward a collection or space: their membership and their role on it. */
export interface ContentStanding {
  readonly membership: Membership;
  /** The caller's role on the content (see {@link contentRole}). */
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
  content: Pick<CollectionRecord | SpaceRecord, "defaultLevel" | "parent"> | undefined,
): Promise<ContentStanding | undefined> {
  const membership = await findMembership(tx, context, organization);
  if (!membership) return undefined;
  return { membership, role: content ? await contentRole(tx, membership, content) : membership.role };
}
