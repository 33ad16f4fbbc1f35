import { z } from "zod";
import { insertMember } from "../members/records.js";
import { defineOperation, noContent } from "../registry.js";
import { memberKey, requireCaller, requireMembership, type Membership } from "../shared/access.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { memberRoleOrGuest } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import {
  tables,
  type MemberRecord,
  type OrganizationRecord,
  type TeamMemberRecord,
  type UserRecord,
} from "../tables.js";
import {
  emailDomain,
  organizationHostname,
  organizationPermissions,
  organizationSchema,
  organizationTitle,
  standaloneMergeRules,
  toOrganization,
} from "./schemas.js";

const tag = "organizations";
const organizationParams = z.object({ organizationId: pathParam() });

/** Whether the user owns at least one team of the organization. */
export async function ownsTeam(tx: ReadTransaction, organization: string, user: string): Promise<boolean> {
  const teams = await tx.list<TeamMemberRecord>(tables.teamMembers.name, {
    index: "byMember",
    where: [organization, user],
  });
  return teams.some((membership) => membership.role === "owner");
}

/** The organization as the member sees it. */
export async function presentOrganization(tx: ReadTransaction, context: Context, membership: Membership) {
  const owner = await ownsTeam(tx, membership.organization.id, membership.member.user);
  return toOrganization(context, membership.organization, organizationPermissions(membership, owner));
}

export const listOrganizationsForAuthenticatedUser = defineOperation({
  id: "listOrganizationsForAuthenticatedUser",
  method: "get",
  path: "/orgs",
  tag,
  summary: "List the organizations the caller is a member of, oldest membership first",
  query: z.object({ ...pageQuery }),
  response: listOf(organizationSchema),
  async run(context, { query }) {
    const caller = requireCaller(context);
    return context.storage.read((tx) =>
      paginate<MemberRecord, z.input<typeof organizationSchema>>(tx, query, {
        table: tables.members,
        index: "byUser",
        where: [caller.userId],
        filter: (member) => !member.disabled,
        map: async (member) =>
          presentOrganization(tx, context, await requireMembership(tx, context, member.organization)),
      }),
    );
  },
});

export const createOrganization = defineOperation({
  id: "createOrganization",
  method: "post",
  path: "/orgs",
  tag,
  summary: "Create an organization; the caller becomes its admin",
  body: z.object({ title: organizationTitle }),
  response: organizationSchema,
  status: 201,
  async run(context, { body }) {
    const caller = requireCaller(context);
    return context.storage.write(async (tx) => {
      const now = context.clock().toISOString();
      const organization: OrganizationRecord = {
        id: context.ids(),
        title: body.title,
        createdAt: now,
        emailDomains: [],
        type: "business",
        defaultRole: "read",
        sso: false,
        ai: false,
        inviteLinks: true,
        plan: "free_2024",
        mergeRules: { type: "none" },
      };
      await tx.put(tables.organizations.name, organization);
      await insertMember(tx, context, organization.id, caller.userId, "admin");
      return presentOrganization(tx, context, await requireMembership(tx, context, organization.id));
    });
  },
});

export const getOrganizationById = defineOperation({
  id: "getOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}",
  tag,
  summary: "Get an organization",
  params: organizationParams,
  response: organizationSchema,
  async run(context, { params }) {
    return context.storage.read(async (tx) =>
      presentOrganization(tx, context, await requireMembership(tx, context, params.organizationId)),
    );
  },
});

export const updateOrganizationById = defineOperation({
  id: "updateOrganizationById",
  method: "patch",
  path: "/orgs/{organizationId}",
  tag,
  summary: "Update an organization (admins)",
  params: organizationParams,
  body: z.object({
    title: organizationTitle.optional(),
    emailDomains: z.array(emailDomain).max(100).optional(),
    hostname: organizationHostname.optional(),
    defaultRole: memberRoleOrGuest.optional(),
    defaultContent: z
      .object({ type: z.literal("site"), site: z.string().min(1) })
      .nullable()
      .optional(),
    logo: z.url().max(2048).nullable().optional(),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
    mergeRules: standaloneMergeRules.optional(),
  }),
  response: organizationSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const membership = await requireMembership(tx, context, params.organizationId, "admin");
      const organization = { ...membership.organization };
      if (body.hostname !== undefined && body.hostname !== organization.hostname) {
        const [taken] = await tx.list(tables.organizations.name, {
          index: "byHostname",
          where: [body.hostname],
          limit: 1,
        });
        if (taken)
          throw conflict(`body.hostname: "${body.hostname}" is already used by another organization`);
        organization.hostname = body.hostname;
      }
      if (body.title !== undefined) organization.title = body.title;
      if (body.emailDomains !== undefined) organization.emailDomains = [...new Set(body.emailDomains)];
      if (body.defaultRole !== undefined) organization.defaultRole = body.defaultRole;
      if (body.defaultContent === null) delete organization.defaultContent;
      else if (body.defaultContent !== undefined) organization.defaultContent = body.defaultContent;
      if (body.logo === null) delete organization.logo;
      else if (body.logo !== undefined) organization.logo = body.logo;
      if (body.sso !== undefined) organization.sso = body.sso;
      if (body.ai !== undefined) organization.ai = body.ai;
      if (body.inviteLinks !== undefined) organization.inviteLinks = body.inviteLinks;
      if (body.mergeRules !== undefined) organization.mergeRules = body.mergeRules;
      await tx.put(tables.organizations.name, organization);
      return presentOrganization(tx, context, { ...membership, organization });
    });
  },
});

export const joinOrganization = defineOperation({
  id: "joinOrganization",
  method: "post",
  path: "/orgs/{organizationId}/join",
  tag,
  summary: "Join an organization whose allowed email domains include the caller's email domain",
  params: organizationParams,
  emptyStatuses: [204],
  async run(context, { params }) {
    const caller = requireCaller(context);
    return context.storage.write(async (tx) => {
      const organization = await tx.get<OrganizationRecord>(tables.organizations.name, params.organizationId);
      if (!organization) throw notFound(`Organization "${params.organizationId}" not found`);
      if (await tx.get(tables.members.name, memberKey(organization.id, caller.userId))) return noContent();
      const user = await tx.get<UserRecord>(tables.users.name, caller.userId);
      const domain = user?.emailKey.split("@")[1] ?? "";
      if (!organization.emailDomains.includes(domain)) {
        throw badRequest(`Email domain "${domain}" is not allowed to join this organization`);
      }
      await insertMember(tx, context, organization.id, caller.userId, organization.defaultRole);
      return noContent();
    });
  },
});

export const organizationOperations = {
  listOrganizationsForAuthenticatedUser,
  createOrganization,
  getOrganizationById,
  updateOrganizationById,
  joinOrganization,
};
