import * as z from "zod";
import { callableByIntegration } from "../permissions/integration-token.js";
import { defineAccess } from "../permissions/rule.js";
import { defineOperation } from "../registry.js";
import { forbidden, notFound } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import { INSTALLATION_TOKEN_LIFETIME_MS, issueInstallationToken } from "../users/integration-token.js";
import { integrationNotFound } from "./access.js";
import { integrationParams } from "./schemas.js";
import { type IntegrationRecord, installationsTable, integrationsTable } from "./tables.js";

/**
 * Installation tokens (docs/integrations.md, "Tokens"): the integration, authenticated as itself
 * by the integration token it receives with each event, obtains a token acting for one of its
 * installations. The reference's security for this operation is `integration` alone: a user's
 * token, an installation token or another integration's token is refused with 403.
 */

const tag = "integrations";

/** Only the integration named in the path, by its own integration token. */
const asTheIntegration = callableByIntegration(
  defineAccess<{ integration: IntegrationRecord }>({
    summary: "an integration token of the integration in path.integrationName",
    authenticated: true,
    async resolve(tx, context, params) {
      const name = String(params["integrationName"]);
      if (context.caller?.integration !== name) {
        throw forbidden(
          `Only the integration "${name}" itself (its integration token) may obtain tokens for its installations`,
        );
      }
      const integration = await tx.get(integrationsTable, name);
      if (!integration) throw integrationNotFound(name);
      return { integration };
    },
  }),
);

export const createIntegrationInstallationToken = defineOperation({
  id: "createIntegrationInstallationToken",
  method: "post",
  path: "/integrations/{integrationName}/installations/{installationId}/tokens",
  tag,
  summary: `Create a temporary token (${INSTALLATION_TOKEN_LIFETIME_MS / 60_000} minutes) acting for an installation of the integration, within its scopes, as the integration`,
  access: asTheIntegration,
  params: integrationParams.extend({ installationId: pathParam() }),
  response: z.object({ token: z.string() }),
  async run({ tx, integration, ...world }, { params }) {
    const installation = await tx.get(installationsTable, params.installationId);
    if (!installation || installation.integration !== integration.name) {
      throw notFound(`Installation "${params.installationId}" of "${integration.name}" not found`);
    }
    const token = await issueInstallationToken(tx, world, {
      id: installation.id,
      integration: integration.name,
      organization: installation.organization,
    });
    return { token };
  },
});

export const tokenOperations = { createIntegrationInstallationToken };
