import { forbidden, unauthorized } from "../shared/errors.js";
import type { Caller } from "../shared/world.js";
import { defineAccess, type AccessRule } from "./rule.js";

/** Reachable without a token (file downloads, bootstrap). */
export const noToken = defineAccess<object>({
  summary: "no token needed",
  authenticated: false,
  resolve: async () => ({}),
});

/** Reachable without a token, and hands one out (the published-content lookups). */
export const handsOutToken = defineAccess<object>({ ...noToken, handsOutToken: true });

/** Any authenticated caller; `run` receives them as `caller`. */
export const anyCaller = defineAccess<{ readonly caller: Caller }>({
  summary: "any authenticated caller",
  authenticated: true,
  async resolve(_tx, context) {
    if (!context.caller) throw unauthorized();
    return { caller: context.caller };
  },
});

/**
 * Any authenticated user: an installation token, which acts for an installation in its
 * organization and is no user, is refused with 403 (docs/integrations.md, "Tokens").
 */
export const anyUser = defineAccess<{ readonly caller: Caller }>({
  summary: "any authenticated user",
  authenticated: true,
  async resolve(_tx, context) {
    if (!context.caller) throw unauthorized();
    if (context.caller.installation) {
      throw forbidden("An installation token acts in its installation's organization only, not as a user");
    }
    return { caller: context.caller };
  },
});

/**
 * The operator, the bootstrap user who manages users; `refusal` is the message of the 403 any
 * other caller gets ("Only the operator can create users").
 */
export function operatorOnly(
  refusal = "Only the operator may do this",
): AccessRule<{ readonly caller: Caller }> {
  return defineAccess({
    summary: "the operator",
    authenticated: true,
    async resolve(_tx, context) {
      if (!context.caller) throw unauthorized();
      if (!context.caller.operator) throw forbidden(refusal);
      return { caller: context.caller };
    },
  });
}
