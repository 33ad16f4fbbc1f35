export type {
  IndexValue,
  ListQuery,
  ReadTransaction,
  Storage,
  StorageSchema,
  StoredRecord,
  Table,
  TableSchema,
  WriteTransaction,
} from "./port.js";
export type {
  BufferedEngine,
  BufferedTransaction,
  DirectEngine,
  DirectTransaction,
  EngineQuery,
  EngineRange,
  EngineReader,
  StorageEngine,
  TableWrites,
} from "./engine.js";
export { createStorage } from "./kit.js";
export { checkQuery, compareTuples, indexFields, indexTuple } from "./order.js";
export { Mutex } from "./mutex.js";
export {
  checkName,
  checkSchemaNames,
  checkSchemaVersion,
  MAX_NAME_LENGTH,
  META_TABLE,
  SCHEMA_VERSION,
} from "./schema.js";
export { deepFreeze } from "./view.js";
