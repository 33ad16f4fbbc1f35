import type { JobHandler } from "./jobs.js";
import { organizationOperations } from "./organizations/operations.js";
import { userOperations } from "./users/operations.js";

/**
 * The registry: every operation of the API, keyed by its `operationId`. HTTP routes, the OpenAPI
 * document and the in-process client are derived from this object alone.
 */
export const operations = {
  ...userOperations,
  ...organizationOperations,
} as const;

export type Operations = typeof operations;

/** Handlers of background jobs, keyed by job type. */
export const jobHandlers: Record<string, JobHandler> = {};
