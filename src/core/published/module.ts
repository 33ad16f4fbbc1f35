import { defineModule } from "../module.js";
import { publishedOperations } from "./published.js";

/**
 * Published reads: what a renderer or a reader gets of a published site (the site's published
 * content, and a URL resolved to its site, section, site space and page). It owns no table: it
 * reads the sites' structure and the spaces' current revisions.
 */
export const publishedModule = defineModule({
  name: "published",
  tables: [],
  operations: publishedOperations,
});
