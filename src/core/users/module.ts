import { defineModule } from "../module.js";
import { userOperations } from "./operations.js";
import { tokenOperations } from "./token-operations.js";
import { signingKeysTable, tokensTable, usersTable } from "./tables.js";

/** Users and their API tokens. */
export const usersModule = defineModule({
  name: "users",
  tables: [usersTable, tokensTable, signingKeysTable],
  operations: { ...userOperations, ...tokenOperations },
});
