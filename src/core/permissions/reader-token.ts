import type { OrganizationRecord } from "../organizations/tables.js";
import type { Context } from "../shared/world.js";
import { memberKey, type Membership } from "./membership.js";

/**
 * The stand-in membership of a reader token (the `apiToken` of a published-content lookup, which
 * stands for no user: `Caller.scope`) in the organization of its space: a guest (no role of its
 * own) that no member list holds. Only the object rule of that space hands it out, with the
 * `read` role on that space alone.
 */
export function readerTokenMembership(organization: OrganizationRecord, context: Context): Membership {
  const user = context.caller?.userId ?? "";
  const at = context.clock().toISOString();
  return {
    organization,
    member: {
      key: memberKey(organization.id, user),
      organization: organization.id,
      user,
      seq: 0,
      role: null,
      joinedAt: at,
      seenAt: at,
      disabled: false,
      sso: false,
    },
    role: null,
  };
}
