import { defineModule } from "../module.js";
import { linkOperations } from "./operations.js";

/** Links and backlinks, derived from immutable revisions: no tables of their own. */
export const linksModule = defineModule({ name: "links", tables: [], operations: linkOperations });
