import { defineModule } from "../module.js";
import { searchOperations } from "./operations.js";
import { searchSiteContent } from "./site-search.js";

/** Full-text search, derived from immutable revisions: no tables of their own. */
export const searchModule = defineModule({
  name: "search",
  tables: [],
  operations: { ...searchOperations, searchSiteContent },
});
