import { storageContract } from "../../testing/index.js";
import { memoryStorage } from "./index.js";

storageContract("memory", () => memoryStorage());
