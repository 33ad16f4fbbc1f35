import { changeRequestOperations } from "./change-requests/operations.js";
import { collectionOperations } from "./collections/operations.js";
import { commentOperations } from "./comments/operations.js";
import { contentReadOperations } from "./content/reads.js";
import { templateOperations } from "./content/templates.js";
import { contentWriteOperations } from "./content/writes.js";
import { EXPIRE_EXPORT_JOB, expireExport, getChangeRequestPDF } from "./exports/pdf.js";
import type { JobHandler } from "./jobs.js";
import { inviteOperations } from "./invites/operations.js";
import { linkOperations } from "./links/operations.js";
import { memberOperations } from "./members/operations.js";
import { organizationOperations } from "./organizations/operations.js";
import { searchOperations } from "./search/operations.js";
import { purgeDeletedSpace } from "./spaces/lifecycle.js";
import { spaceOperations } from "./spaces/operations.js";
import { PURGE_SPACE_JOB } from "./spaces/records.js";
import { teamOperations } from "./teams/operations.js";
import { userOperations } from "./users/operations.js";

/**
 * The registry: every operation of the API, keyed by its `operationId`. HTTP routes, the OpenAPI
 * document and the in-process client are derived from this object alone.
 */
export const operations = {
  ...userOperations,
  ...organizationOperations,
  ...memberOperations,
  ...inviteOperations,
  ...teamOperations,
  ...collectionOperations,
  ...spaceOperations,
  ...contentReadOperations,
  ...contentWriteOperations,
  getChangeRequestPDF,
  ...linkOperations,
  ...searchOperations,
  ...changeRequestOperations,
  ...templateOperations,
  ...commentOperations,
} as const;

export type Operations = typeof operations;

/** Handlers of background jobs, keyed by job type. */
export const jobHandlers: Record<string, JobHandler> = {
  [PURGE_SPACE_JOB]: purgeDeletedSpace,
  [EXPIRE_EXPORT_JOB]: expireExport,
};
