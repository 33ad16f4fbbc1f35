import { defineModule } from "../module.js";
import { PROCESS_OPENAPI_SPEC_JOB, processOpenAPISpec } from "./process.js";
import { specOperations } from "./specs.js";
import { openAPISpecsTable, openAPISpecVersionsTable } from "./tables.js";
import { versionOperations } from "./versions.js";

/** OpenAPI specs and their versions (docs/openapi-specs.md). */
export const openAPIModule = defineModule({
  name: "openapi",
  tables: [openAPISpecsTable, openAPISpecVersionsTable],
  operations: { ...specOperations, ...versionOperations },
  jobs: { [PROCESS_OPENAPI_SPEC_JOB]: processOpenAPISpec },
});
