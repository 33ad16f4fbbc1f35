import * as z from "zod";
import { insertMember } from "../members/records.js";
import { defineOperation, noContent } from "../registry.js";
import { memberKey, requireMembership } from "../permissions/membership.js";
import { inOrganization } from "../permissions/organization.js";
import { anyCaller, anyUser } from "../permissions/rules.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, pageQuery, paginate } from "../shared/pagination.js";
import { memberRoleOrGuest } from "../shared/roles.js";
import { boundedId, httpUrl, pathParam } from "../shared/schema.js";
import { type MemberRecord, membersTable } from "../members/tables.js";
import { newOrganizationRecord, organizationsTable } from "./tables.js";
import { usersTable } from "../users/tables.js";
import { sitesTable } from "../sites/tables.js";
import { anyCallerOnOrganization } from "./access.js";
import {
  emailDomain,
  organizationHostname,
  organizationSchema,
  organizationTitle,
  refuseBadExpressions,
  standaloneMergeRules,
} from "./schemas.js";
import { presentOrganization, presentOrganizationWith } from "./present.js";

const tag = "organizations";
const organizationParams = z.object({ organizationId: pathParam() });

export const listOrganizationsForAuthenticatedUser = defineOperation({
  id: "listOrganizationsForAuthenticatedUser",
  method: "get",
  path: "/orgs",
  tag,
  summary: "List the organizations the caller is a member of, oldest membership first",
  access: anyCaller,
  query: z.object({ ...pageQuery }),
  response: listOf(organizationSchema),
  async run(scope, { query }) {
    const { tx, caller } = scope;
    return paginate<MemberRecord, z.input<typeof organizationSchema>>(tx, query, {
      table: membersTable,
      index: "byUser",
      where: [caller.userId],
      filter: (member) => !member.disabled,
      map: async (member) =>
        presentOrganization(tx, scope, await requireMembership(tx, scope, member.organization)),
      // Merge rules and email domains make an organization up to megabytes: bounded in size.
      maxChars: LARGE_ITEMS_PAGE_CHARS,
    });
  },
});

export const createOrganization = defineOperation({
  id: "createOrganization",
  method: "post",
  path: "/orgs",
  tag,
  summary: "Create an organization; the caller becomes its admin",
  access: anyUser,
  body: z.object({ title: organizationTitle }),
  response: organizationSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, caller } = scope;
    const now = scope.clock().toISOString();
    const organization = newOrganizationRecord(scope.ids(), body.title, now);
    await tx.put(organizationsTable, organization);
    await insertMember(tx, scope, organization.id, caller.userId, "admin");
    return presentOrganization(tx, scope, await requireMembership(tx, scope, organization.id));
  },
});

export const getOrganizationById = defineOperation({
  id: "getOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}",
  tag,
  summary: "Get an organization",
  params: organizationParams,
  access: inOrganization("member"),
  response: organizationSchema,
  async run(scope) {
    return presentOrganizationWith(scope, scope.membership.organization, scope.permissions);
  },
});

export const updateOrganizationById = defineOperation({
  id: "updateOrganizationById",
  method: "patch",
  path: "/orgs/{organizationId}",
  tag,
  summary: "Update an organization (admins)",
  params: organizationParams,
  access: inOrganization("admin"),
  body: z.object({
    title: organizationTitle.optional(),
    emailDomains: z.array(emailDomain).max(100).optional(),
    hostname: organizationHostname.optional(),
    defaultRole: memberRoleOrGuest.optional(),
    defaultContent: z
      .object({ type: z.literal("site"), site: boundedId() })
      .nullable()
      .optional(),
    logo: httpUrl().nullable().optional(),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
    mergeRules: standaloneMergeRules.superRefine(refuseBadExpressions).optional(),
  }),
  response: organizationSchema,
  async run(scope, { body }) {
    const { tx, membership, permissions } = scope;
    const organization = { ...membership.organization };
    if (body.hostname !== undefined && body.hostname !== organization.hostname) {
      const [taken] = await tx.list(organizationsTable, {
        index: "byHostname",
        where: [body.hostname],
        limit: 1,
      });
      if (taken) throw conflict(`body.hostname: "${body.hostname}" is already used by another organization`);
      organization.hostname = body.hostname;
    }
    if (body.title !== undefined) organization.title = body.title;
    if (body.emailDomains !== undefined) organization.emailDomains = [...new Set(body.emailDomains)];
    if (body.defaultRole !== undefined) organization.defaultRole = body.defaultRole;
    if (body.defaultContent) {
      // The default content is a site of this organization (a site of another one is not found).
      const site = await tx.get(sitesTable, body.defaultContent.site);
      if (site?.organization !== organization.id) {
        throw badRequest(
          `body.defaultContent.site: no site "${body.defaultContent.site}" in this organization`,
        );
      }
    }
    if (body.defaultContent === null) delete organization.defaultContent;
    else if (body.defaultContent !== undefined) organization.defaultContent = body.defaultContent;
    if (body.logo === null) delete organization.logo;
    else if (body.logo !== undefined) organization.logo = body.logo;
    if (body.sso !== undefined) organization.sso = body.sso;
    if (body.ai !== undefined) organization.ai = body.ai;
    if (body.inviteLinks !== undefined) organization.inviteLinks = body.inviteLinks;
    if (body.mergeRules !== undefined) organization.mergeRules = body.mergeRules;
    await tx.put(organizationsTable, organization);
    // The caller's permissions do not depend on the fields changed here.
    return presentOrganizationWith(scope, organization, permissions);
  },
});

export const joinOrganization = defineOperation({
  id: "joinOrganization",
  method: "post",
  path: "/orgs/{organizationId}/join",
  tag,
  summary: "Join an organization whose allowed email domains include the caller's email domain",
  params: organizationParams,
  access: anyCallerOnOrganization(),
  emptyStatuses: [204],
  async run(scope) {
    const { tx, caller, organization } = scope;
    // A disabled member is a member too: joining does not bring them back.
    if (await tx.get(membersTable, memberKey(organization.id, caller.userId))) return noContent();
    const user = await tx.get(usersTable, caller.userId);
    const domain = user?.emailKey.split("@")[1] ?? "";
    // Answered as for a missing organization (anyCallerOnOrganization), so that a caller who may
    // not join cannot tell whether the organization exists.
    if (!organization.emailDomains.includes(domain))
      throw notFound(`Organization "${organization.id}" not found`);
    await insertMember(tx, scope, organization.id, caller.userId, organization.defaultRole);
    return noContent();
  },
});

export const organizationOperations = {
  listOrganizationsForAuthenticatedUser,
  createOrganization,
  getOrganizationById,
  updateOrganizationById,
  joinOrganization,
};
