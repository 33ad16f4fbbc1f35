/**
 * Test helpers: the in-process test double and the storage-adapter contract suite.
 *
 * `storageContract` declares vitest suites, so this entry point needs vitest (an optional peer
 * dependency); `createTestDocsbase` works under any test runner.
 * @module
 */
export { createTestDocsbase } from "./double.js";
export type { TestClient, TestDocsbase, TestDocsbaseOptions, TestUser } from "./double.js";
export { FixtureError, parseFixture } from "./fixture.js";
export type {
  Fixture,
  FixtureChangeRequest,
  FixtureCollection,
  FixtureComment,
  FixtureFile,
  FixtureOrganization,
  FixturePage,
  FixtureRole,
  FixtureSite,
  FixtureSpace,
  FixtureUser,
} from "./fixture.js";
export { UnservedOperationError } from "./unserved.js";
export { testDoubleHandler } from "./admin.js";
export type { TestClock, TestJobs, TestTime } from "./clock.js";
export type { JobInfo, JobState } from "../core/jobs/index.js";
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
