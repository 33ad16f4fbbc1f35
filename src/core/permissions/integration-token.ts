import { forbidden } from "../shared/errors.js";
import type { AccessRule } from "./rule.js";

/**
 * Integration tokens. An integration token authenticates as an integration (`Caller.integration`)
 * and stands for no user. Which operations it may call is access data, as for reader tokens: an
 * operation opens itself to such a token by wrapping its rule in {@link callableByIntegration},
 * naming the path parameter that must name the token's own integration, and
 * {@link requireIntegrationTokenAccess}, which `invoke` calls for every such caller, refuses
 * everything else with 403.
 */

/** The path parameter every integration-token operation names its integration by. */
const INTEGRATION_IN_PATH = "integrationName";

/**
 * `rule`, also open to an integration token for the integration named in `path.integrationName`.
 * The rule still resolves for the token: it must let the integration through on its own.
 *
 * @example
 * ```ts
 * access: callableByIntegration(onIntegration("view")),
 * ```
 */
export function callableByIntegration<L extends object, P>(
  rule: AccessRule<L, P>,
  param: string = INTEGRATION_IN_PATH,
): AccessRule<L, P> {
  return { ...rule, integrationToken: param };
}

/**
 * Fails with 403 unless the operation's rule is open to integration tokens and its path names the
 * token's own integration. The one check of integration tokens.
 */
export function requireIntegrationTokenAccess(
  rule: Pick<AccessRule, "integrationToken">,
  integration: string,
  params: unknown,
): void {
  const param = rule.integrationToken;
  const named = params as Readonly<Record<string, unknown>>;
  if (param === undefined || named[param] !== integration) {
    throw forbidden(
      `An integration token only reads integration "${integration}" and creates tokens for its installations`,
    );
  }
}
