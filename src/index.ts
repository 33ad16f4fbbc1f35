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
export { createDocsbase, DEFAULT_MAX_BODY_BYTES, mountDocsbase } from "./docsbase.js";
export type { HostRouter, MountOptions } from "./http/mount.js";
export type { ClientAuth, Docsbase, DocsbaseOptions } from "./docsbase.js";
export { DEFAULT_RATE_LIMIT, type Limit, type RateLimitOptions } from "./http/rate-limit.js";
export type { Client, ClientInput, ClientOutput } from "./core/client.js";
export { operations } from "./core/operations.js";
export type { Operations } from "./core/operations.js";
export { afterTransaction, AfterTransaction, defineOperation, Reply } from "./core/registry.js";
export type { AnyOperation, HttpMethod, Operation, OperationInput, EmptyObject } from "./core/registry.js";
export type { BootstrapResult } from "./core/users/bootstrap.js";
export { DocsbaseError, isDocsbaseError } from "./core/shared/errors.js";
export type { ErrorCode } from "./core/shared/errors.js";
export { createSafeFetch, type FetchFunction, type SafeFetchOptions } from "./core/net/outbound.js";
export { OutboundError, isOutboundError, type OutboundErrorCode } from "./core/net/outbound-error.js";
export { classifyAddress, type AddressKind } from "./core/net/ip.js";
export type { ResolveHost } from "./core/net/resolve.js";
export type { ResolveTxt } from "./core/net/resolve-txt.js";
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./core/shared/pagination.js";
export { MEMBER_ROLES } from "./core/shared/roles.js";
export type { Role } from "./core/shared/roles.js";
export type { Caller, Context, World } from "./core/shared/world.js";
export type { InvokeObserver, ObservedAnswer, ObservedCall } from "./core/shared/observe.js";
export type * from "./core/storage/port.js";
export { storageSchema } from "./core/operations.js";
export { defineModule } from "./core/module.js";
export type { ResourceModule, LifecycleHooks, OperationsOf } from "./core/module.js";
export { defineTable } from "./core/storage/table.js";
export {
  defineAccess,
  anyCaller,
  noToken,
  operatorOnly,
  requirePermission,
  inOrganization,
  readableWithReaderToken,
} from "./core/permissions/index.js";
export type { AccessRule } from "./core/permissions/index.js";
export { onSpace, onSpaceIfPresent, type SpaceScope } from "./core/spaces/access.js";
export { scheduleJob, type JobHandler } from "./core/jobs/index.js";
export { keyed } from "./core/registry.js";
export type { Scope, TransactionMode } from "./core/registry.js";
export type { HostIdentity } from "./docsbase.js";
export { createStorage } from "./core/storage/kit.js";
export { checkSchemaVersion, MAX_NAME_LENGTH, META_TABLE, SCHEMA_VERSION } from "./core/storage/schema.js";
export type * from "./core/storage/engine.js";
export { onCollection, onCollectionIfPresent } from "./core/collections/access.js";
export { onChangeRequest, onContent } from "./core/content/access.js";
export { onTeam } from "./core/teams/access.js";
export type { BackgroundContext, JobInfo, JobOptions, JobQuery, JobHandlers } from "./core/jobs/index.js";
export type { Translator, TranslationRequest, TranslatorContext } from "./core/translations/translator.js";
export { libreTranslate, type LibreTranslateOptions } from "./core/translations/libretranslate.js";
export type {
  AnalyzedIssue,
  ConversationAnalyzer,
  ConversationImpact,
  ConversationToAnalyze,
} from "./core/conversations/analyzer.js";
export { lexicalAnalyzer } from "./core/conversations/lexical.js";
/**
 * The types that the exports above name in their signatures (options, the scopes that access
 * rules load, the pieces of an operation declaration), exported so that code written against
 * docsbase, a module of its own included, can name them.
 */
export type { BodyInput, ObjectInput } from "./core/client.js";
export type { UnionToIntersection } from "./core/module.js";
export type { AnyObjectSchema, OperationDeclaration, TransactionOf } from "./core/registry.js";
export type {
  CallerInstallation,
  CallerScope,
  HostnameVerification,
  Lifecycle,
  TransferredContent,
} from "./core/shared/world.js";
export type { DerivedCache } from "./core/shared/cache.js";
export type { CountedRange } from "./core/shared/counters.js";
export type { TokenCacheOptions } from "./core/users/token-cache.js";
export type { JobRunnerOptions } from "./core/jobs/runner.js";
export type { JobAttempt } from "./core/jobs/schedule.js";
export type { DefinedTable, TableDefinition } from "./core/storage/table.js";
export type { MemberStanding, OnObject, OrganizationWide, Viewable } from "./core/permissions/owned.js";
export type { ContentStanding, Membership } from "./core/permissions/membership.js";
export type { ReaderTokenAccess } from "./core/permissions/rule.js";
export type { OrganizationAccess } from "./core/permissions/organization.js";
export type { PermissionFlag } from "./core/permissions/refuse.js";
export type { SpaceRecord } from "./core/spaces/tables.js";
export type { SpacePermissions } from "./core/spaces/schemas.js";
export type {
  ChangeRequestContentScope,
  ChangeRequestScope,
  ContentAt,
  ContentScope,
  SpaceFlag,
} from "./core/content/access.js";
export type { CollectionScope } from "./core/collections/access.js";
export type { CollectionRecord } from "./core/collections/tables.js";
export type { CollectionPermissions } from "./core/collections/schemas.js";
export type { TeamAccess } from "./core/teams/access.js";
