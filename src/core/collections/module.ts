import { defineModule } from "../module.js";
import { collectionOperations } from "./operations.js";
import { collectionCounts, collectionsTable } from "./tables.js";

/** Collections: nested folders of spaces. */
export const collectionsModule = defineModule({
  name: "collections",
  tables: [collectionsTable],
  operations: collectionOperations,
  counts: collectionCounts,
});
