import * as z from "zod";
import { defineOperation, deleted } from "../registry.js";
import { inOrganization } from "../permissions/organization.js";
import { requirePermission } from "../permissions/refuse.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { MEMBER_ROLES, memberRoleOrGuest } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import type { ReadTransaction } from "../storage/port.js";
import { type MemberRecord, membersTable } from "./tables.js";
import { usersTable } from "../users/tables.js";
import { listTeamsForOrganizationMember } from "./teams.js";
import { listSpacesForOrganizationMember } from "./spaces.js";
import { findMember, keepAnAdmin, requireMember } from "./access.js";
import { memberSchema, type Member } from "./schemas.js";
import { MemberPresenter } from "./present.js";

const tag = "members";
const organizationParams = z.object({ organizationId: pathParam() });
const memberParams = z.object({ organizationId: pathParam(), userId: pathParam() });

export const listMembersInOrganizationById = defineOperation({
  id: "listMembersInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/members",
  tag,
  summary:
    "List the members of an organization (non-guest members). Sorting by lastSeenAt lists active " +
    "(not disabled) members only; members never seen sort by their join date.",
  params: organizationParams,
  access: inOrganization("listMembers"),
  query: z.object({
    ...pageQuery,
    order: z.enum(["asc", "desc"]).default("desc"),
    sort: z.enum(["joinedAt", "lastSeenAt"]).default("joinedAt"),
    role: z.enum([...MEMBER_ROLES, "guest"]).optional(),
    search: z.string().max(512).optional(),
  }),
  response: listOf(memberSchema),
  async run(scope, { query }) {
    const { tx, membership } = scope;
    const organization = membership.organization.id;
    const presenter = new MemberPresenter(tx, scope, membership);
    const search = query.search?.trim().toLowerCase() ?? "";
    const role = query.role === "guest" ? null : query.role;
    // A role (never a guest's null) with the join-date sort is an index range of its own.
    const byRole = query.sort === "joinedAt" && role != null;
    const index = query.sort === "lastSeenAt" ? "byOrganizationSeen" : byRole ? "byRole" : "byOrganization";
    const checks: ((member: MemberRecord) => boolean | Promise<boolean>)[] = [];
    if (query.sort === "lastSeenAt") checks.push((member) => !member.disabled);
    if (role !== undefined && !byRole) checks.push((member) => member.role === role);
    if (search) checks.push((member) => matchesSearch(tx, member, search));
    return paginate<MemberRecord, Member>(tx, query, {
      table: membersTable,
      index,
      where: byRole ? [organization, role] : [organization],
      reverse: query.order === "desc",
      ...(checks.length > 0
        ? {
            filter: async (member: MemberRecord) => {
              for (const check of checks) if (!(await check(member))) return false;
              return true;
            },
          }
        : {}),
      map: (member) => presenter.presentMember(member),
    });
  },
});

async function matchesSearch(tx: ReadTransaction, member: MemberRecord, search: string): Promise<boolean> {
  const user = await tx.get(usersTable, member.user);
  return !!user && (user.displayName.toLowerCase().includes(search) || user.emailKey.includes(search));
}

export const getMemberInOrganizationById = defineOperation({
  id: "getMemberInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/members/{userId}",
  tag,
  summary: "Get a member of an organization (non-guest members)",
  params: memberParams,
  access: inOrganization("listMembers"),
  response: memberSchema,
  async run(scope, { params }) {
    const { tx, membership } = scope;
    const member = await requireMember(tx, membership.organization.id, params.userId);
    return new MemberPresenter(tx, scope, membership).presentMember(member);
  },
});

export const updateMemberInOrganizationById = defineOperation({
  id: "updateMemberInOrganizationById",
  method: "patch",
  path: "/orgs/{organizationId}/members/{userId}",
  tag,
  summary: "Change a member's role (admins); null makes them a guest. The last admin cannot be demoted.",
  params: memberParams,
  access: inOrganization("admin"),
  body: z.object({ role: memberRoleOrGuest.optional() }),
  response: memberSchema,
  async run(scope, { params, body }) {
    const { tx, membership } = scope;
    const member = await requireMember(tx, membership.organization.id, params.userId);
    const updated: MemberRecord = { ...member };
    if (body.role !== undefined && body.role !== member.role) {
      if (body.role !== "admin") await keepAnAdmin(tx, member);
      updated.role = body.role;
      await tx.put(membersTable, updated);
    }
    return new MemberPresenter(tx, scope, membership).presentMember(updated);
  },
});

export const removeMemberFromOrganizationById = defineOperation({
  id: "removeMemberFromOrganizationById",
  method: "delete",
  path: "/orgs/{organizationId}/members/{userId}",
  tag,
  summary:
    "Remove a member (admins), or leave the organization (any member, for themself), with their " +
    "team memberships. The last admin cannot leave.",
  params: memberParams,
  // Any member may leave; removing someone else needs "admin", checked below.
  access: inOrganization("member"),
  emptyStatuses: [204, 205],
  async run(scope, { params }) {
    const { tx, membership, permissions } = scope;
    if (params.userId !== membership.member.user) {
      requirePermission(permissions, "admin", "Removing another member");
    }
    const member = await findMember(tx, membership.organization.id, params.userId);
    if (!member) return deleted(false);
    await keepAnAdmin(tx, member);
    // Every module drops what the member had here (their team memberships...) before they go.
    await scope.lifecycle.memberRemoved(tx, member);
    await tx.delete(membersTable, member.key);
    return deleted(true);
  },
});

export const memberOperations = {
  listMembersInOrganizationById,
  getMemberInOrganizationById,
  updateMemberInOrganizationById,
  removeMemberFromOrganizationById,
  listTeamsForOrganizationMember,
  listSpacesForOrganizationMember,
};
