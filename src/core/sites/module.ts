import { defineModule } from "../module.js";
import { adaptiveOperations } from "./adaptive-operations.js";
import { customizationOperations } from "./customization.js";
import { groupOperations } from "./groups.js";
import { hostnameOperations, VERIFY_HOSTNAME_JOB, verifyHostnameJob } from "./hostnames.js";
import { orderOperations } from "./order.js";
import { listPermissionsAggregateInSite } from "./permissions-aggregate.js";
import { publishingAuthOperations } from "./publishing-auth.js";
import { sectionOperations } from "./sections.js";
import { redirectOperations } from "./redirects.js";
import { shareLinkOperations } from "./share-links.js";
import { siteSpaceOperations } from "./site-spaces.js";
import { siteOperations } from "./sites.js";
import { purgeSiteSpaces } from "./structure.js";
import {
  shareLinksTable,
  siteCustomizationsTable,
  siteNodesTable,
  siteRedirectsTable,
  sitesTable,
  siteSpacesTable,
} from "./tables.js";

/**
 * Sites: their administration and structure (sections, section groups, site spaces, share links,
 * redirects, customization settings, the adaptive-content schema and the visitor-auth key). What readers of a published site get is
 * the `published` module.
 */
export const sitesModule = defineModule({
  name: "sites",
  tables: [
    sitesTable,
    siteNodesTable,
    siteSpacesTable,
    shareLinksTable,
    siteRedirectsTable,
    siteCustomizationsTable,
  ],
  operations: {
    ...siteOperations,
    ...sectionOperations,
    ...groupOperations,
    ...siteSpaceOperations,
    ...shareLinkOperations,
    ...redirectOperations,
    ...customizationOperations,
    ...adaptiveOperations,
    ...publishingAuthOperations,
    ...orderOperations,
    listPermissionsAggregateInSite,
    ...hostnameOperations,
  },
  jobs: { [VERIFY_HOSTNAME_JOB]: verifyHostnameJob },
  hooks: { purgeSpace: purgeSiteSpaces },
});
