import { defineModule } from "../module.js";
import { adaptiveOperations } from "./adaptive-operations.js";
import { groupOperations } from "./groups.js";
import { orderOperations } from "./order.js";
import { publishedOperations } from "./published.js";
import { publishingAuthOperations } from "./publishing-auth.js";
import { sectionOperations } from "./sections.js";
import { shareLinkOperations } from "./share-links.js";
import { siteSpaceOperations } from "./site-spaces.js";
import { siteOperations } from "./sites.js";
import { purgeSiteSpaces } from "./structure.js";
import { shareLinksTable, siteNodesTable, sitesTable, siteSpacesTable } from "./tables.js";

/** Sites: published sites, their sections, section groups, site spaces and share links. */
export const sitesModule = defineModule({
  name: "sites",
  tables: [sitesTable, siteNodesTable, siteSpacesTable, shareLinksTable],
  operations: {
    ...siteOperations,
    ...sectionOperations,
    ...groupOperations,
    ...siteSpaceOperations,
    ...shareLinkOperations,
    ...adaptiveOperations,
    ...publishingAuthOperations,
    ...orderOperations,
    ...publishedOperations,
  },
  hooks: { purgeSpace: purgeSiteSpaces },
});
