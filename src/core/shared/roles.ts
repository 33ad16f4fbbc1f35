import * as z from "zod";

/**
 * Roles, strongest first, as the API names them: admin, create, review, edit, comment, read.
 * `null` is a guest: an organization member with no organization-wide role.
 */
export const MEMBER_ROLES = ["admin", "create", "edit", "review", "comment", "read"] as const;
export type Role = (typeof MEMBER_ROLES)[number];

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

export const memberRole = z.enum(MEMBER_ROLES);
export const memberRoleOrGuest = memberRole.nullable();
/** A content `defaultLevel`: a role, `null` (no default access) or `inherit` (the parent's). */
export const defaultLevel = z.union([memberRole, z.literal("inherit")]).nullable();
export type DefaultLevel = z.infer<typeof defaultLevel>;

/** Whether `role` grants at least `minimum`. A guest or a missing role grants nothing. */
export function atLeast(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && RANK[role] >= RANK[minimum];
}

/** A role's strength: higher is stronger (read 1 ... admin 6); a sort key for lists by role. */
export function roleRank(role: Role): number {
  return RANK[role];
}

/** The strongest of several roles, or null when none is given. */
export function strongest(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (role && (!best || RANK[role] > RANK[best])) best = role;
  return best;
}
