import { defineModule } from "../module.js";
import { inviteOperations } from "./operations.js";
import { emailInvitesTable, invitesTable } from "./tables.js";

/** Invitations to organizations: by email (pending until accepted) and by invite link. */
export const invitesModule = defineModule({
  name: "invites",
  tables: [invitesTable, emailInvitesTable],
  operations: inviteOperations,
});
