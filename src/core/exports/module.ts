import { defineModule } from "../module.js";
import { EXPIRE_EXPORT_JOB, expireExport, getChangeRequestPDF } from "./pdf.js";
import { exportsTable } from "./tables.js";

/** PDF exports: short-lived download capabilities for the rendering of one revision. */
export const exportsModule = defineModule({
  name: "exports",
  tables: [exportsTable],
  operations: { getChangeRequestPDF },
  jobs: { [EXPIRE_EXPORT_JOB]: expireExport },
});
