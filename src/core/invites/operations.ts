import * as z from "zod";
import { insertMember } from "../members/records.js";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { memberRoleOrGuest } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import { type InviteRecord, invitesTable } from "./tables.js";
import { inviteLinkHolder } from "./access.js";
import { emailInviteOperations } from "./email-invites.js";
import {
  createInviteBody,
  inviteSchema,
  isOrganizationInvite,
  organizationInviteRole,
  requireInvite,
  requireInviteLinks,
  type Invite,
  type OrganizationInviteRecord,
} from "./schemas.js";
import { presentInvite } from "./present.js";

const tag = "invites";
const organizationParams = z.object({ organizationId: pathParam() });
const inviteParams = z.object({ organizationId: pathParam(), inviteId: pathParam() });

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
      map: (invite) => presentInvite(invite as OrganizationInviteRecord, membership.role),
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
    return new Reply(201, presentInvite(invite, membership.role), { location });
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
    return presentInvite(invite, membership?.role);
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
    return presentInvite(updated, membership.role);
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
  ...emailInviteOperations,
  listOrganizationInviteLinks,
  createOrganizationInvite,
  getOrganizationInviteLink,
  updateOrganizationInviteById,
  deleteOrganizationInviteById,
  joinOrganizationWithInvite,
};
