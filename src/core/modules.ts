import { agentInstructionsModule } from "./agent-instructions/module.js";
import { changeRequestsModule } from "./change-requests/module.js";
import { collectionsModule } from "./collections/module.js";
import { commentsModule } from "./comments/module.js";
import { contentModule } from "./content/module.js";
import { contentTreeModule } from "./content-tree/module.js";
import { conversationsModule } from "./conversations/module.js";
import { grantsModule } from "./grants/module.js";
import { embedsModule } from "./embeds/module.js";
import { exportsModule } from "./exports/module.js";
import { integrationsModule } from "./integrations/module.js";
import { invitesModule } from "./invites/module.js";
import { jobQueuesTable, jobsTable } from "./jobs/tables.js";
import { linksModule } from "./links/module.js";
import { membersModule } from "./members/module.js";
import { defineModule } from "./module.js";
import { openAPIModule } from "./openapi/module.js";
import { organizationsModule } from "./organizations/module.js";
import { publishedModule } from "./published/module.js";
import { replicasModule } from "./replicas/module.js";
import { searchModule } from "./search/module.js";
import { sitesModule } from "./sites/module.js";
import { sequencesTable } from "./shared/sequence.js";
import { spacesModule } from "./spaces/module.js";
import { ssoModule } from "./sso/module.js";
import { teamsModule } from "./teams/module.js";
import { translationsModule } from "./translations/module.js";
import { usersModule } from "./users/module.js";

/** What every resource builds on: insertion sequences and the job queue. */
const systemModule = defineModule({
  name: "system",
  tables: [sequencesTable, jobsTable, jobQueuesTable],
  operations: {},
});

/**
 * Every resource module of the API, in registration order. Adding a resource is adding its folder
 * and one line here (docs/architecture.md, "Adding a resource").
 */
export const MODULES = [
  systemModule,
  usersModule,
  organizationsModule,
  membersModule,
  invitesModule,
  teamsModule,
  grantsModule,
  collectionsModule,
  spacesModule,
  contentTreeModule,
  contentModule,
  exportsModule,
  linksModule,
  embedsModule,
  searchModule,
  changeRequestsModule,
  commentsModule,
  sitesModule,
  publishedModule,
  integrationsModule,
  openAPIModule,
  ssoModule,
  agentInstructionsModule,
  translationsModule,
  conversationsModule,
  replicasModule,
] as const;
