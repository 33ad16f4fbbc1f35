import { defineModule } from "../module.js";
import { purgeDeletedSpace } from "./lifecycle.js";
import { spaceOperations } from "./operations.js";
import { PURGE_SPACE_JOB } from "./records.js";
import { spaceCounts, spacesTable } from "./tables.js";

/** Spaces: their lifecycle (delete, restore after up to 7 days, purge), moves and transfers. */
export const spacesModule = defineModule({
  name: "spaces",
  tables: [spacesTable],
  operations: spaceOperations,
  counts: spaceCounts,
  jobs: { [PURGE_SPACE_JOB]: purgeDeletedSpace },
});
