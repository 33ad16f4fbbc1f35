import { defineModule } from "../module.js";
import { replicaOriginsTable, replicaSpacesTable } from "./tables.js";

/**
 * The storage of `docsbase/sync` replicas (src/sync): no operation of its own; the replica reads
 * and writes these tables beside the local revisions. A purged space takes its replica state along.
 */
export const replicasModule = defineModule({
  name: "replicas",
  tables: [replicaOriginsTable, replicaSpacesTable],
  operations: {},
  hooks: {
    async purgeSpace(tx, _world, space) {
      await tx.delete(replicaSpacesTable, space.id);
    },
  },
});
