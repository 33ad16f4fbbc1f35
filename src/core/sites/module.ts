import { defineModule } from "../module.js";
import { siteOperations } from "./sites.js";
import { shareLinksTable, siteNodesTable, sitesTable, siteSpacesTable } from "./tables.js";

/** Sites: published sites, their sections, section groups, site spaces and share links. */
export const sitesModule = defineModule({
  name: "sites",
  tables: [sitesTable, siteNodesTable, siteSpacesTable, shareLinksTable],
  operations: { ...siteOperations },
});
