import * as z from "zod";
import { memberRoleOrGuest } from "../shared/roles.js";
import { defineTable } from "../storage/table.js";

/**
 * A SAML provider of an organization. `ssoURL`, `entityID` and `certificate` are absent until set;
 * the provider is `active` once all three are (see `schemas.ts`).
 */
export const samlProviderRecord = z.object({
  id: z.string(),
  organization: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  label: z.string(),
  ssoURL: z.string().optional(),
  entityID: z.string().optional(),
  /** The identity provider's certificate in PEM, as sent (trimmed). */
  certificate: z.string().optional(),
  /** A team of the organization that members signing in through the provider join. */
  defaultTeam: z.string().optional(),
  defaultRole: memberRoleOrGuest,
  createdAt: z.string(),
});
export type SAMLProviderRecord = z.infer<typeof samlProviderRecord>;

export const samlProvidersTable = defineTable({
  name: "samlProviders",
  key: "id",
  indexes: { byOrganization: ["organization", "seq"] },
  record: samlProviderRecord,
});
