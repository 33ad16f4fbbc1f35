import { defineModule } from "../module.js";
import { inviteOperations } from "./operations.js";
import { invitesTable } from "./tables.js";

/** Invitations to organizations: by email and by invite link. */
export const invitesModule = defineModule({
  name: "invites",
  tables: [invitesTable],
  operations: inviteOperations,
});
