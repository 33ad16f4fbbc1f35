import * as z from "zod";
import { memberRoleOrGuest } from "../shared/roles.js";
import { defineTable } from "../storage/table.js";

export const organizationType = z.enum(["business", "community"]);
/** The reference `BillingPlan`; docsbase has no billing and gives every organization `free_2024`. */
export const organizationPlan = z.enum([
  "free_2024",
  "plus_2024",
  "pro_2024",
  "enterprise_2024",
  "community_2024",
  "free",
  "plus",
  "pro",
  "internal",
]);

/** Merge rules as stored: none, or rules whose shape the schemas of the API check on input. */
export const storedMergeRules = z.union([
  z.object({ type: z.literal("none") }),
  z.object({ type: z.literal("rules"), rules: z.array(z.unknown()) }),
]);

export const organizationRecord = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  emailDomains: z.array(z.string()),
  hostname: z.string().optional(),
  type: organizationType,
  defaultRole: memberRoleOrGuest,
  defaultContent: z.object({ type: z.literal("site"), site: z.string() }).optional(),
  logo: z.string().optional(),
  sso: z.boolean(),
  ai: z.boolean(),
  inviteLinks: z.boolean(),
  plan: organizationPlan,
  mergeRules: storedMergeRules,
});
export type OrganizationRecord = z.infer<typeof organizationRecord>;

/**
 * A new organization's record: `createOrganization`'s defaults (anyone joining reads, invite links
 * on), unless `access` says otherwise, as a replica's local copy of a remote organization does.
 */
export function newOrganizationRecord(
  id: string,
  title: string,
  createdAt: string,
  access: Partial<Pick<OrganizationRecord, "defaultRole" | "inviteLinks">> = {},
): OrganizationRecord {
  return {
    id,
    title,
    createdAt,
    emailDomains: [],
    type: "business",
    defaultRole: "read",
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: "free_2024",
    mergeRules: { type: "none" },
    ...access,
  };
}

export const organizationsTable = defineTable({
  name: "organizations",
  key: "id",
  indexes: { byHostname: ["hostname"] },
  record: organizationRecord,
});
