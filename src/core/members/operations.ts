import { z } from "zod";
import { defineOperation, deleted } from "../registry.js";
import { requireCaller, requireMembership } from "../shared/access.js";
import { forbidden } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { MEMBER_ROLES, memberRoleOrGuest } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { tables, type MemberRecord, type TeamMemberRecord, type UserRecord } from "../tables.js";
import { listTeamsForOrganizationMember } from "./teams.js";
import {
  findMember,
  isOrganizationAdmin,
  keepAnAdmin,
  requireMember,
  requireOrganizationPermission,
} from "./access.js";
import { MemberPresenter, memberSchema, type Member } from "./schemas.js";

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
  query: z.object({
    ...pageQuery,
    order: z.enum(["asc", "desc"]).default("desc"),
    sort: z.enum(["joinedAt", "lastSeenAt"]).default("joinedAt"),
    role: z.enum([...MEMBER_ROLES, "guest"]).optional(),
    search: z.string().max(512).optional(),
  }),
  response: listOf(memberSchema),
  async run(context, { params, query }) {
    return context.storage.read(async (tx) => {
      const membership = await requireOrganizationPermission(
        tx,
        context,
        params.organizationId,
        "listMembers",
      );
      const organization = membership.organization.id;
      const presenter = new MemberPresenter(tx, context, membership);
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
        table: tables.members,
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
        map: (member) => presenter.present(member),
      });
    });
  },
});

async function matchesSearch(tx: ReadTransaction, member: MemberRecord, search: string): Promise<boolean> {
  const user = await tx.get<UserRecord>(tables.users.name, member.user);
  return !!user && (user.displayName.toLowerCase().includes(search) || user.emailKey.includes(search));
}

export const getMemberInOrganizationById = defineOperation({
  id: "getMemberInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/members/{userId}",
  tag,
  summary: "Get a member of an organization (non-guest members)",
  params: memberParams,
  response: memberSchema,
  async run(context, { params }) {
    return context.storage.read(async (tx) => {
      const membership = await requireOrganizationPermission(
        tx,
        context,
        params.organizationId,
        "listMembers",
      );
      const member = await requireMember(tx, params.organizationId, params.userId);
      return new MemberPresenter(tx, context, membership).present(member);
    });
  },
});

export const updateMemberInOrganizationById = defineOperation({
  id: "updateMemberInOrganizationById",
  method: "patch",
  path: "/orgs/{organizationId}/members/{userId}",
  tag,
  summary: "Change a member's role (admins); null makes them a guest. The last admin cannot be demoted.",
  params: memberParams,
  body: z.object({ role: memberRoleOrGuest.optional() }),
  response: memberSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const membership = await requireOrganizationPermission(tx, context, params.organizationId, "admin");
      const member = await requireMember(tx, params.organizationId, params.userId);
      const updated: MemberRecord = { ...member };
      if (body.role !== undefined && body.role !== member.role) {
        if (body.role !== "admin") await keepAnAdmin(tx, member);
        updated.role = body.role;
        await tx.put(tables.members.name, updated);
      }
      return new MemberPresenter(tx, context, membership).present(updated);
    });
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
  emptyStatuses: [204, 205],
  async run(context, { params }) {
    const caller = requireCaller(context);
    return context.storage.write(async (tx) => {
      const membership = await requireMembership(tx, context, params.organizationId);
      if (params.userId !== caller.userId && !(await isOrganizationAdmin(tx, membership))) {
        throw forbidden('Removing another member needs the "admin" role in the organization');
      }
      const member = await findMember(tx, params.organizationId, params.userId);
      if (!member) return deleted(false);
      await keepAnAdmin(tx, member);
      await removeTeamMemberships(tx, member);
      await tx.delete(tables.members.name, member.key);
      return deleted(true);
    });
  },
});

async function removeTeamMemberships(tx: WriteTransaction, member: MemberRecord): Promise<void> {
  const memberships = await tx.list<TeamMemberRecord>(tables.teamMembers.name, {
    index: "byMember",
    where: [member.organization, member.user],
  });
  for (const teamMember of memberships) await tx.delete(tables.teamMembers.name, teamMember.key);
}

export const memberOperations = {
  listMembersInOrganizationById,
  getMemberInOrganizationById,
  updateMemberInOrganizationById,
  removeMemberFromOrganizationById,
  listTeamsForOrganizationMember,
};
