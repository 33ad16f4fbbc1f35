import * as z from "zod";
import type { Membership } from "../permissions/membership.js";
import { atLeast, memberRoleOrGuest } from "../shared/roles.js";
import { boundedId, wellFormed } from "../shared/schema.js";
import { compileExpression, ExpressionError, type ExpressionRules, type Key } from "../shared/expression.js";
import { organizationPlan, organizationType } from "./tables.js";

export const organizationTitle = z.string().trim().min(2).max(255).check(wellFormed());
/** A lower-case hostname label: what the organization's default public hostname starts with. */
export const organizationHostname = z
  .string()
  .min(3)
  .max(32)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, "Lower-case letters, digits and inner hyphens only");
/** An email domain such as `example.com`. */
export const emailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "Not a valid domain name");

/** Most rules in one `mergeRules`, and most users in one rule (docs/api.md, "Limits"). */
export const MAX_MERGE_RULES = 100;
export const MAX_MERGE_RULE_USERS = 1000;

const mergeRule = z.discriminatedUnion("rule", [
  z.object({
    rule: z.enum(["require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"]),
    users: z.array(boundedId()).max(MAX_MERGE_RULE_USERS),
  }),
  z.object({
    rule: z.enum([
      "require_at_least_one_review",
      "require_all_reviews_approved",
      "require_agent_review",
      "require_up_to_date_change_request",
      "require_change_request_subject",
      "require_change_request_description",
    ]),
  }),
  z.object({ rule: z.literal("custom"), expression: z.string().max(1024) }),
]);
const CONTEXT_NAMES = new Set(["space", "changeRequest", "reviews", "actor"]);
const FORBIDDEN_KEYS = new Set(["constructor", "__proto__", "prototype"]);

/**
 * `custom` expressions: JavaScript syntax over the reference's `MergeRulesEvaluationContext`, read
 * as the API presents each part. No call, no assignment, no code: the safe evaluator of
 * shared/expression.ts, on at most 1024 characters (`MAX_EXPRESSION_LENGTH`).
 */
export const MERGE_EXPRESSION_RULES: ExpressionRules = {
  noun: "merge rule expression",
  operators: new Set(["!", "==", "!=", "===", "!==", "<", "<=", ">", ">=", "&&", "||", "??", "?:", "+", "-"]),
  literals: true,
  computedKeys: "literal",
  resolve(root, keys, refuse) {
    if (root.name === undefined || !CONTEXT_NAMES.has(root.name)) {
      return refuse(
        root.at,
        `${root.name === undefined ? "a read" : `unknown identifier "${root.name}"`}: the context holds space, changeRequest, reviews and actor`,
        "unresolved",
      );
    }
    const path: Key[] = [root.name];
    for (const { key, at } of keys) {
      if (typeof key === "string" && FORBIDDEN_KEYS.has(key)) refuse(at, `"${key}" cannot be read`);
      path.push(key);
    }
    return path;
  },
  objects: "opaque",
};

// Discriminated, so that an error inside the rules names its field rather than "Invalid input".
export const standaloneMergeRules = z.discriminatedUnion("type", [
  z.object({ type: z.literal("rules"), rules: z.array(mergeRule).max(MAX_MERGE_RULES) }),
  z.object({ type: z.literal("none") }),
]);

/**
 * Refuses, at save, a `custom` rule whose expression does not compile, with the reason and the
 * field (`rules.0.expression`), rather than at the first merge.
 */
export function refuseBadExpressions(
  value: {
    readonly type: string;
    readonly rules?: readonly { readonly rule: string; readonly expression?: string }[];
  },
  context: z.RefinementCtx,
): void {
  for (const [index, rule] of (value.rules ?? []).entries()) {
    if (rule.rule !== "custom" || rule.expression === undefined) continue;
    try {
      compileExpression(rule.expression, MERGE_EXPRESSION_RULES);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      context.addIssue({ code: "custom", path: ["rules", index, "expression"], message: error.message });
    }
  }
}

export const organizationPermissionsSchema = z.object({
  view: z.boolean(),
  admin: z.boolean(),
  ownTeam: z.boolean(),
  createContent: z.boolean(),
  createOpenAPISpec: z.boolean(),
  ingestConversations: z.boolean(),
  viewBilling: z.boolean(),
  listMembers: z.boolean(),
  listTeams: z.boolean(),
  listIntegrations: z.boolean(),
  listInstallations: z.boolean(),
  installIntegration: z.boolean(),
});
export type OrganizationPermissions = z.infer<typeof organizationPermissionsSchema>;

export const organizationSchema = z.object({
  object: z.literal("organization"),
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  emailDomains: z.array(z.string()),
  hostname: z.string().optional(),
  type: organizationType,
  defaultRole: memberRoleOrGuest.optional(),
  defaultContent: z.object({ type: z.literal("site"), site: z.string() }).optional(),
  sso: z.boolean(),
  ai: z.boolean(),
  inviteLinks: z.boolean(),
  plan: organizationPlan,
  mergeRules: standaloneMergeRules,
  trial: z.object({ status: z.literal("notapplicable"), count: z.number() }),
  urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
  permissions: organizationPermissionsSchema,
});
export type Organization = z.infer<typeof organizationSchema>;

/**
 * What a member may do in their organization. Operations enforce exactly these rules, so the flags
 * never promise what a call would refuse. Guests (`role: null`) may only view the organization.
 */
export function organizationPermissions(membership: Membership, ownsTeam: boolean): OrganizationPermissions {
  const { role } = membership;
  const admin = atLeast(role, "admin");
  const member = role !== null;
  return {
    view: true,
    admin,
    ownTeam: admin || ownsTeam,
    createContent: atLeast(role, "create"),
    // Organization admins manage OpenAPI specs (docs/openapi-specs.md).
    createOpenAPISpec: atLeast(role, "admin"),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}
