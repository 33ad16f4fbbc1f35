import { defineModule } from "../module.js";
import { treeNodesTable } from "./hamt.js";
import { contentMigrationsTable } from "./migrate.js";
import { contentReadOperations } from "./reads.js";
import { blobsTable, fileVersionsTable, pageVersionsTable, revisionsTable } from "./tables.js";
import { templateOperations } from "./templates.js";
import { contentWriteOperations } from "./writes.js";

/**
 * Immutable revisions of a space's pages and files: reads, writes and templates. Purging a space
 * removes its revisions; tree nodes, page and file versions and blobs stay, since duplicates and
 * templates share them with other spaces (nothing collects unreferenced ones yet).
 */
export const contentModule = defineModule({
  name: "content",
  tables: [
    revisionsTable,
    treeNodesTable,
    pageVersionsTable,
    fileVersionsTable,
    blobsTable,
    contentMigrationsTable,
  ],
  operations: { ...contentReadOperations, ...contentWriteOperations, ...templateOperations },
  hooks: {
    async purgeSpace(tx, _world, space) {
      for (const revision of await tx.list(revisionsTable, { index: "bySpace", where: [space.id] })) {
        await tx.delete(revisionsTable, revision.id);
      }
    },
  },
});
