import { defineModule } from "../module.js";
import { ssoOperations } from "./operations.js";
import { samlProvidersTable } from "./tables.js";

/** SAML providers of an organization and the sign-in choices they offer (docs/sso.md). */
export const ssoModule = defineModule({
  name: "sso",
  tables: [samlProvidersTable],
  operations: ssoOperations,
});
