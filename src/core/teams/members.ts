import * as z from "zod";
import { findMember, findUserByEmail, requireMember } from "../members/access.js";
import { memberSchema } from "../members/schemas.js";
import { requirePermission } from "../permissions/refuse.js";
import { defineOperation, deleted, noContent } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import type { MemberRecord } from "../members/tables.js";
import { type TeamMemberRecord, type TeamRecord, teamMembersTable } from "./tables.js";
import { onTeam } from "./access.js";
import { MAX_TEAM_CHANGES, teamMemberKey, teamMemberSchema, teamRole, type TeamRole } from "./schemas.js";
import { MemberPresenter } from "../members/present.js";

const tag = "teams";
const teamParams = z.object({ organizationId: pathParam(), teamId: pathParam() });
const teamMemberParams = z.object({ organizationId: pathParam(), teamId: pathParam(), userId: pathParam() });
/** A user named by id or by email (UpdateMembersInOrganizationTeam); 320 is the longest email. */
const userReference = z.string().trim().min(1).max(320);

/** The organization member a user id or email names, or undefined. */
async function resolveMember(
  tx: ReadTransaction,
  organization: string,
  reference: string,
): Promise<MemberRecord | undefined> {
  const user = reference.includes("@") ? (await findUserByEmail(tx, reference))?.id : reference;
  return user === undefined ? undefined : findMember(tx, organization, user);
}

/** Adds the member to the team, or changes their role when `role` is given and they are in it. */
export async function putTeamMember(
  tx: WriteTransaction,
  world: World,
  team: TeamRecord,
  user: string,
  role: TeamRole | undefined,
): Promise<void> {
  const key = teamMemberKey(team.id, user);
  const existing = await tx.get(teamMembersTable, key);
  if (existing && (role === undefined || existing.role === role)) return;
  const record: TeamMemberRecord = existing
    ? { ...existing, role: role ?? existing.role }
    : {
        key,
        team: team.id,
        organization: team.organization,
        user,
        seq: await nextSequence(tx, team.organization),
        role: role ?? "member",
        addedAt: world.clock().toISOString(),
      };
  await tx.put(teamMembersTable, record);
}

export const updateMembersInOrganizationTeam = defineOperation({
  id: "updateMembersInOrganizationTeam",
  method: "put",
  path: "/orgs/{organizationId}/teams/{teamId}/members",
  tag,
  summary:
    "Add, remove and re-role team members (admins and the team's owners). Users are named by id or " +
    "email and must be organization members; `memberships` sets roles (adding those not yet in the " +
    "team); a user both added and removed is removed.",
  params: teamParams,
  access: onTeam("admin"),
  body: z.object({
    add: z.array(userReference).max(MAX_TEAM_CHANGES).optional(),
    remove: z.array(userReference).max(MAX_TEAM_CHANGES).optional(),
    memberships: z
      .record(z.string(), teamMemberSchema)
      .superRefine((memberships, context) => {
        const references = Object.keys(memberships);
        if (references.length > MAX_TEAM_CHANGES) {
          context.addIssue({
            code: "custom",
            message: `Too big: expected at most ${MAX_TEAM_CHANGES} entries`,
          });
        }
        // Checked here rather than by a key schema, whose message would repeat the whole key.
        if (references.some((reference) => !userReference.safeParse(reference).success)) {
          context.addIssue({ code: "custom", message: "Keys are user ids or emails of 1 to 320 characters" });
        }
      })
      .optional(),
  }),
  emptyStatuses: [204],
  async run(scope, { body }) {
    const { tx, team } = scope;
    // Resolve and validate everything before the first write, so bad input changes nothing.
    const additions = new Map<string, TeamRole | undefined>();
    for (const [index, reference] of (body.add ?? []).entries()) {
      const member = await resolveMember(tx, team.organization, reference);
      if (!member) throw badRequest(`body.add.${index}: "${reference}" is not a member of this organization`);
      additions.set(member.user, additions.get(member.user));
    }
    for (const [reference, { role }] of Object.entries(body.memberships ?? {})) {
      const member = await resolveMember(tx, team.organization, reference);
      if (!member) {
        throw badRequest(
          `body.memberships.${reference}: "${reference}" is not a member of this organization`,
        );
      }
      additions.set(member.user, role);
    }
    const removals = new Set<string>();
    for (const reference of body.remove ?? []) {
      const member = await resolveMember(tx, team.organization, reference);
      // Removing someone who is not there is already done.
      if (member) removals.add(member.user);
    }
    for (const [user, role] of additions) {
      if (!removals.has(user)) await putTeamMember(tx, scope, team, user, role);
    }
    for (const user of removals) await tx.delete(teamMembersTable, teamMemberKey(team.id, user));
    return noContent();
  },
});

const teamMembershipSchema = z.object({
  organization: memberSchema,
  team: teamMemberSchema,
  permissions: z.object({ view: z.boolean() }),
});

export const listTeamMembersInOrganizationById = defineOperation({
  id: "listTeamMembersInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/teams/{teamId}/members",
  tag,
  summary: "List the members of a team with their team roles, in the order they were added",
  params: teamParams,
  access: onTeam("view"),
  query: z.object({ ...pageQuery }),
  response: listOf(teamMembershipSchema),
  async run(scope, { query }) {
    const { tx, team, permissions } = scope;
    const presenter = new MemberPresenter(tx, scope, scope.membership);
    return paginate<TeamMemberRecord, z.input<typeof teamMembershipSchema>>(tx, query, {
      table: teamMembersTable,
      index: "byTeam",
      where: [team.id],
      map: async (teamMember) => ({
        organization: await presenter.presentMember(
          await requireMember(tx, teamMember.organization, teamMember.user),
        ),
        team: { role: teamMember.role },
        permissions: { view: permissions.view },
      }),
    });
  },
});

export const addMemberToOrganizationTeamById = defineOperation({
  id: "addMemberToOrganizationTeamById",
  method: "put",
  path: "/orgs/{organizationId}/teams/{teamId}/members/{userId}",
  tag,
  summary:
    "Add an organization member to a team, or change their team role (admins and the team's " +
    "owners). A new member gets the `member` role unless `role` says otherwise.",
  params: teamMemberParams,
  access: onTeam("admin"),
  body: z.object({ role: teamRole.optional() }).optional(),
  emptyStatuses: [204],
  async run(scope, { params, body }) {
    const { tx, team } = scope;
    const member = await requireMember(tx, team.organization, params.userId);
    await putTeamMember(tx, scope, team, member.user, body?.role);
    return noContent();
  },
});

export const deleteMemberFromOrganizationTeamById = defineOperation({
  id: "deleteMemberFromOrganizationTeamById",
  method: "delete",
  path: "/orgs/{organizationId}/teams/{teamId}/members/{userId}",
  tag,
  summary: "Remove a member from a team (admins and the team's owners), or leave a team (anyone in it)",
  params: teamMemberParams,
  // Anyone in the organization may leave a team; removing someone else needs "admin", checked below.
  access: onTeam(null),
  emptyStatuses: [204, 205],
  async run({ tx, membership, team, permissions }, { params }) {
    if (params.userId !== membership.member.user) {
      requirePermission(permissions, "admin", "Removing a member from a team");
    }
    return deleted(await tx.delete(teamMembersTable, teamMemberKey(team.id, params.userId)));
  },
});

export const teamMemberOperations = {
  updateMembersInOrganizationTeam,
  listTeamMembersInOrganizationById,
  addMemberToOrganizationTeamById,
  deleteMemberFromOrganizationTeamById,
};
