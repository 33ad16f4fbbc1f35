/**
 * docsbase: an embeddable documentation-platform backend.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { memoryStorage } from "docsbase/adapters/memory";
 * const docsbase = createDocsbase({ storage: memoryStorage() });
 * ```
 * @module
 */
export { createDocsbase, DEFAULT_MAX_BODY_BYTES } from "./docsbase.js";
export type { ClientAuth, Docsbase, DocsbaseOptions } from "./docsbase.js";
export type { Client, ClientInput, ClientOutput } from "./core/client.js";
export { operations } from "./core/operations.js";
export type { Operations } from "./core/operations.js";
export { defineOperation, Reply } from "./core/registry.js";
export type { AnyOperation, HttpMethod, Operation, OperationInput, EmptyObject } from "./core/registry.js";
export type { BootstrapResult } from "./core/users/bootstrap.js";
export { DocsbaseError, isDocsbaseError } from "./core/shared/errors.js";
export type { ErrorCode } from "./core/shared/errors.js";
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./core/shared/pagination.js";
export { MEMBER_ROLES } from "./core/shared/roles.js";
export type { Role } from "./core/shared/roles.js";
export type { Caller, Context, World } from "./core/shared/world.js";
export type * from "./core/storage/port.js";
export { storageSchema } from "./core/tables.js";
