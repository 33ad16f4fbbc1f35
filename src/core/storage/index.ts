export type {
  IndexValue,
  ListQuery,
  ReadTransaction,
  Storage,
  StorageSchema,
  StoredRecord,
  TableSchema,
  WriteTransaction,
} from "./port.js";
export { checkQuery, compareTuples, indexFields, indexTuple } from "./order.js";
export { Mutex } from "./mutex.js";
