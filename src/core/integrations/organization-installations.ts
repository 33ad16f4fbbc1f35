import * as z from "zod";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation } from "../registry.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { viewerOf } from "./access.js";
import { spaceCount } from "./installations.js";
import { presentInstallation, presentIntegration } from "./present.js";
import { installationSchema, integrationSchema, MAX_INTEGRATIONS_PAGE } from "./schemas.js";
import {
  type InstallationRecord,
  installationsTable,
  type IntegrationRecord,
  integrationsTable,
} from "./tables.js";

/**
 * The integrations installed in an organization, each with its installation, by integration name
 * (docs/integrations.md, "Installations"). For the organization's admins: its `listInstallations`
 * permission. An installed integration the caller may no longer see (a private one of an
 * organization they are not in) is left out.
 */

const organizationInstallation = z.object({
  integration: integrationSchema,
  installation: installationSchema,
});

export const listOrganizationInstallations = defineOperation({
  id: "listOrganizationInstallations",
  method: "get",
  path: "/orgs/{organizationId}/installations",
  tag: "integrations",
  summary:
    "List the integrations installed in an organization with their installations, by name; `search` filters by integration name or title (admins)",
  access: inOrganization("listInstallations"),
  params: z.object({ organizationId: pathParam() }),
  query: z.object({ ...pageQuery, search: z.string().max(256).optional() }),
  response: listOf(organizationInstallation),
  async run(scope, { params, query }) {
    const { tx } = scope;
    const integrations = new Map<string, Promise<IntegrationRecord | undefined>>();
    const integrationOf = (name: string) => {
      let found = integrations.get(name);
      if (!found) {
        found = tx.get(integrationsTable, name);
        integrations.set(name, found);
      }
      return found;
    };
    const search = query.search?.toLowerCase();
    // Each item carries a whole integration: pages are bounded as listIntegrations' are.
    const limit = Math.min(query.limit ?? MAX_INTEGRATIONS_PAGE, MAX_INTEGRATIONS_PAGE);
    return paginate<InstallationRecord, z.input<typeof organizationInstallation>>(
      tx,
      { ...query, limit },
      {
        table: installationsTable,
        index: "byOrganization",
        where: [params.organizationId],
        async filter(installation) {
          const integration = await integrationOf(installation.integration);
          if (!integration) return false;
          if (
            search !== undefined &&
            !integration.name.toLowerCase().includes(search) &&
            !integration.title.toLowerCase().includes(search)
          ) {
            return false;
          }
          return (await viewerOf(tx, scope, integration)).permissions.view;
        },
        async map(installation) {
          const integration = (await integrationOf(installation.integration))!;
          return {
            integration: await presentIntegration(
              tx,
              scope,
              integration,
              await viewerOf(tx, scope, integration),
            ),
            installation: presentInstallation(
              scope,
              installation,
              await spaceCount(tx, integration, installation.organization),
            ),
          };
        },
        maxChars: LARGE_ITEMS_PAGE_CHARS,
      },
    );
  },
});

export const organizationInstallationOperations = { listOrganizationInstallations };
