/**
 * Test helpers: the in-process test double and the storage-adapter contract suite.
 *
 * `storageContract` declares vitest suites, so this entry point needs vitest (an optional peer
 * dependency); `createTestDocsbase` works under any test runner.
 * @module
 */
export { createTestDocsbase } from "./double.js";
export type { TestClient, TestDocsbase, TestDocsbaseOptions, TestUser } from "./double.js";
export { UnservedOperationError } from "./unserved.js";
export type { TestSnapshot } from "./snapshots.js";
export type { CallEntry, CallFilter, CallJournal } from "./journal.js";
export { FaultError, type Fault, type FaultOptions, type FaultTarget } from "./faults.js";
export {
  storageContract,
  contractSchema,
  contractTables,
  type Counter,
  type Item,
  type StorageContractOptions,
} from "./storage-contract.js";
