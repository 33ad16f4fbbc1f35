import { spacesTable } from "../spaces/tables.js";
import type { Caller, Context, World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import {
  INTEGRATION_CALLER_PREFIX,
  issueInstallationToken,
  issueIntegrationToken,
} from "../users/integration-token.js";
import { presentInstallation, presentIntegration } from "./present.js";
import { type EventRecord, installationsTable, type IntegrationRecord } from "./tables.js";

/**
 * The reference's `IntegrationEnvironment`, which GitBook's runtime hands an integration's script
 * with each event: where the API is, an integration token (`apiTokens.integration`) and a token of
 * the event's installation (`apiTokens.installation`), both new for each delivery attempt
 * (docs/integrations.md, "Tokens"), the integration, the installation, the integration's signing
 * secret and its secrets. Sent with a delivery only, never stored with the event: the events'
 * list and get never show it.
 */
export async function eventEnvironment(
  tx: WriteTransaction,
  world: World,
  event: EventRecord,
  integration: IntegrationRecord,
): Promise<Record<string, unknown>> {
  const caller: Caller = {
    userId: `${INTEGRATION_CALLER_PREFIX}${integration.name}`,
    operator: false,
    integration: integration.name,
  };
  const context: Context = { ...world, caller };
  const installation = await tx.get(installationsTable, event.installation);
  const spaces =
    installation && ["all", "space"].includes(integration.target)
      ? await tx.count(spacesTable, { index: "byOrganization", where: [installation.organization, "live"] })
      : 0;
  return {
    apiEndpoint: `${world.baseUrl}/v1`,
    apiTokens: {
      integration: await issueIntegrationToken(tx, world, integration.name),
      ...(installation
        ? {
            installation: await issueInstallationToken(tx, world, {
              id: installation.id,
              integration: integration.name,
              organization: installation.organization,
            }),
          }
        : {}),
    },
    integration: await presentIntegration(tx, context, integration, {
      ownerMembership: undefined,
      permissions: { view: true, admin: false },
    }),
    ...(installation ? { installation: presentInstallation(world, installation, spaces) } : {}),
    signingSecrets: { integration: integration.signingSecret },
    secrets: integration.secrets,
  };
}
