import * as z from "zod";
import { memberRoleOrGuest } from "../shared/roles.js";
import { timestamp } from "../shared/schema.js";
import { userSchema } from "../users/schemas.js";

/** The reference `OrganizationMember`. A member's id is their user id. */
export const memberSchema = z.object({
  object: z.literal("member"),
  id: z.string(),
  role: memberRoleOrGuest,
  user: userSchema,
  disabled: z.boolean(),
  joinedAt: timestamp(),
  lastSeenAt: timestamp().optional(),
  sso: z.boolean(),
  /** Live spaces of the organization this member can access. */
  spaces: z.number(),
  /** Teams of the organization this member belongs to. */
  teams: z.number(),
});
export type Member = z.infer<typeof memberSchema>;
