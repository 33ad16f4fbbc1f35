import { defineModule } from "../module.js";
import { DELIVER_EVENT_JOB, deliverEvent } from "./delivery.js";
import { eventOperations } from "./events.js";
import { installationOperations } from "./installations.js";
import { integrationOperations } from "./integrations.js";
import { manageInstallationOperations } from "./manage-installation.js";
import { organizationInstallationOperations } from "./organization-installations.js";
import { tokenOperations } from "./tokens.js";
import { eventsTable, installationsTable, integrationAssetsTable, integrationsTable } from "./tables.js";

/**
 * Integrations: published integrations, their installations into organizations, their events, the
 * delivery of events to a development tunnel, and the tokens of installations.
 */
export const integrationsModule = defineModule({
  name: "integrations",
  tables: [integrationsTable, integrationAssetsTable, installationsTable, eventsTable],
  operations: {
    ...integrationOperations,
    ...installationOperations,
    ...manageInstallationOperations,
    ...organizationInstallationOperations,
    ...eventOperations,
    ...tokenOperations,
  },
  jobs: { [DELIVER_EVENT_JOB]: deliverEvent },
});
