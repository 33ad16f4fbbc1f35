import { defineModule } from "../module.js";
import { treeNodesTable } from "./hamt.js";
import { contentMigrationsTable } from "./migrate.js";
import {
  blobsTable,
  fileVersionsTable,
  pageVersionsTable,
  reusableContentVersionsTable,
  revisionsTable,
} from "./tables.js";

/**
 * The content tree's storage: immutable revisions, the tree nodes that name their pages, files and
 * children by hash, page, file and reusable content versions, and file blobs. It serves no operation of its own (the
 * `content` module reads and writes through it). Purging a space removes its revisions; tree
 * nodes, versions and blobs stay, since duplicates and templates share them with
 * other spaces (nothing collects unreferenced ones yet).
 */
export const contentTreeModule = defineModule({
  name: "content-tree",
  tables: [
    revisionsTable,
    treeNodesTable,
    pageVersionsTable,
    fileVersionsTable,
    reusableContentVersionsTable,
    blobsTable,
    contentMigrationsTable,
  ],
  operations: {},
  hooks: {
    async purgeSpace(tx, _world, space) {
      for (const revision of await tx.list(revisionsTable, { index: "bySpace", where: [space.id] })) {
        await tx.delete(revisionsTable, revision.id);
      }
    },
  },
});
