import { defineModule } from "../module.js";
import { searchOperations } from "./operations.js";

/** Full-text search, derived from immutable revisions: no tables of their own. */
export const searchModule = defineModule({ name: "search", tables: [], operations: searchOperations });
