import { z } from "zod";
import { findUserByEmail } from "../members/access.js";
import { insertMember } from "../members/records.js";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { memberRoleOrGuest, type Role } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import { type InviteRecord, invitesTable } from "./tables.js";
import { inviteLinkHolder } from "./access.js";
import {
  createInviteBody,
  inviteSchema,
  isOrganizationInvite,
  organizationInviteRole,
  requireInvite,
  requireInviteLinks,
  toInvite,
  type Invite,
  type OrganizationInviteRecord,
} from "./schemas.js";

const tag = "invites";
const organizationParams = z.object({ organizationId: pathParam() });
const inviteParams = z.object({ organizationId: pathParam(), inviteId: pathParam() });
const email = z.string().trim().min(1).max(320);

export const inviteUsersToOrganization = defineOperation({
  id: "inviteUsersToOrganization",
  method: "post",
  path: "/orgs/{organizationId}/invites",
  tag,
  summary:
    "Add existing users to the organization by email (admins). Each gets the role given with their " +
    "email, else `role`, else the organization's defaultRole; members keep their role. Every email " +
    "must belong to a user, or nothing is added.",
  params: organizationParams,
  access: inOrganization("admin"),
  body: z.object({
    emails: z
      .array(z.union([email, z.object({ email, role: memberRoleOrGuest })]))
      .min(1)
      .max(1000),
    role: memberRoleOrGuest.optional(),
    sso: z.boolean().optional(),
  }),
  response: z.object({ users: z.array(z.string()), invited: z.number() }),
  async run(scope, { body }) {
    const { tx } = scope;
    const { organization } = scope.membership;
    const fallback = body.role !== undefined ? body.role : organization.defaultRole;
    // Resolve every email before the first write, so an unknown one changes nothing.
    const roles = new Map<string, Role | null>();
    for (const [index, entry] of body.emails.entries()) {
      const address = typeof entry === "string" ? entry : entry.email;
      const user = await findUserByEmail(tx, address);
      if (!user) throw badRequest(`body.emails.${index}: no user has the email "${address}"`);
      // A user listed twice keeps the first role given.
      if (!roles.has(user.id)) roles.set(user.id, typeof entry === "string" ? fallback : entry.role);
    }
    let invited = 0;
    for (const [user, role] of roles) {
      if (await insertMember(tx, scope, organization.id, user, role, body.sso ?? false)) invited++;
    }
    return { users: [...roles.keys()], invited };
  },
});

export const listOrganizationInviteLinks = defineOperation({
  id: "listOrganizationInviteLinks",
  method: "get",
  path: "/orgs/{organizationId}/link-invites",
  tag,
  summary: "List the organization's invite links, oldest first (admins)",
  params: organizationParams,
  access: inOrganization("admin"),
  query: z.object({ ...pageQuery }),
  response: listOf(inviteSchema),
  async run({ tx, membership }, { query }) {
    return paginate<InviteRecord, Invite>(tx, query, {
      table: invitesTable,
      index: "byOrganization",
      where: [membership.organization.id],
      filter: isOrganizationInvite,
      map: (invite) => toInvite(invite as OrganizationInviteRecord, membership.role),
    });
  },
});

export const createOrganizationInvite = defineOperation({
  id: "createOrganizationInvite",
  method: "post",
  path: "/orgs/{organizationId}/link-invites",
  tag,
  summary:
    "Create an invite link to the organization with a role (admins, while invite links are enabled). " +
    "Space and collection invite links are not supported yet.",
  params: organizationParams,
  access: inOrganization("admin"),
  body: createInviteBody,
  response: inviteSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, membership } = scope;
    const role = organizationInviteRole(body);
    requireInviteLinks(membership.organization);
    const invite: OrganizationInviteRecord = {
      id: scope.ids(),
      organization: membership.organization.id,
      seq: await nextSequence(tx),
      createdAt: scope.clock().toISOString(),
      target: { type: "organization", role },
    };
    await tx.put(invitesTable, invite);
    // The reference invite has no `urls`; the Location header of the creation points here.
    const location = `${scope.baseUrl}/v1/orgs/${invite.organization}/link-invites/${invite.id}`;
    return new Reply(201, toInvite(invite, membership.role), { location });
  },
});

export const getOrganizationInviteLink = defineOperation({
  id: "getOrganizationInviteLink",
  method: "get",
  path: "/orgs/{organizationId}/link-invites/{inviteId}",
  tag,
  summary:
    "Get an invite link: admins, and whoever holds the link (its id) while invite links are " +
    "enabled, to see what joining grants before joining",
  params: inviteParams,
  access: inviteLinkHolder("read"),
  response: inviteSchema,
  async run({ invite, membership }) {
    return toInvite(invite, membership?.role);
  },
});

export const updateOrganizationInviteById = defineOperation({
  id: "updateOrganizationInviteById",
  method: "patch",
  path: "/orgs/{organizationId}/link-invites/{inviteId}",
  tag,
  summary: "Change the role an invite link grants (admins)",
  params: inviteParams,
  access: inOrganization("admin"),
  body: z.object({ role: memberRoleOrGuest.optional(), level: memberRoleOrGuest.optional() }),
  response: inviteSchema,
  async run({ tx, membership }, { params, body }) {
    if (body.level !== undefined) {
      throw badRequest("body.level: only space and collection invite links have a level; send role");
    }
    const role = body.role;
    if (role === undefined) throw badRequest("body.role: Required (a role, or null for guests)");
    const invite = await requireInvite(tx, membership.organization.id, params.inviteId);
    const updated: OrganizationInviteRecord = { ...invite, target: { type: "organization", role } };
    await tx.put(invitesTable, updated);
    return toInvite(updated, membership.role);
  },
});

export const deleteOrganizationInviteById = defineOperation({
  id: "deleteOrganizationInviteById",
  method: "delete",
  path: "/orgs/{organizationId}/link-invites/{inviteId}",
  tag,
  summary: "Delete an invite link (admins)",
  params: inviteParams,
  access: inOrganization("admin"),
  emptyStatuses: [204, 205],
  async run({ tx, membership }, { params }) {
    const invite = await tx.get(invitesTable, params.inviteId);
    if (!invite || invite.organization !== membership.organization.id) return deleted(false);
    return deleted(await tx.delete(invitesTable, invite.id));
  },
});

export const joinOrganizationWithInvite = defineOperation({
  id: "joinOrganizationWithInvite",
  method: "post",
  path: "/orgs/{organizationId}/invites/{inviteId}",
  tag,
  summary:
    "Join an organization through an invite link, with the role it grants (while invite links are " +
    "enabled). A member already keeps their role.",
  params: inviteParams,
  access: inviteLinkHolder("join"),
  response: z.object({}),
  async run(scope) {
    const { tx, caller, organization, invite } = scope;
    await insertMember(tx, scope, organization.id, caller.userId, invite.target.role);
    return {};
  },
});

export const inviteOperations = {
  inviteUsersToOrganization,
  listOrganizationInviteLinks,
  createOrganizationInvite,
  getOrganizationInviteLink,
  updateOrganizationInviteById,
  deleteOrganizationInviteById,
  joinOrganizationWithInvite,
};
