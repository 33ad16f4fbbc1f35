export { storageContract, contractSchema, type StorageContractOptions } from "./storage-contract.js";
