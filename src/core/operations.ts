import { assemble, type Assembly } from "./module.js";
import { MODULES } from "./modules.js";

/**
 * The registry and everything else derived from the modules of `./modules.ts`: operations keyed
 * by their literal `operationId`, the storage schema, the job handler map and the lifecycle.
 */
// Annotated: the inferred type, every operation spelled out, is too long for declaration output.
export const api: Assembly<typeof MODULES> = assemble(MODULES);

/** Every operation of the API, keyed by its `operationId`. */
export const operations = api.operations;
export type Operations = typeof operations;

/** Every table core stores, from the modules. */
export const storageSchema = api.schema;
