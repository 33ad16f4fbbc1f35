export { defineAccess, type AccessRule } from "./rule.js";
export { anyCaller, anyUser, noToken, operatorOnly } from "./rules.js";
export { requirePermission, type PermissionFlag } from "./refuse.js";
export {
  contentRole,
  contentStanding,
  teamsOf,
  userContentRole,
  type Content,
  type ContentStanding,
  effectiveDefaultLevel,
  findMembership,
  memberKey,
  requireCaller,
  requireMembership,
  viewsAllContent,
  type Membership,
} from "./membership.js";
export { inOrganization, ownsTeam, permissionsOf, type OrganizationAccess } from "./organization.js";
export { readableWithReaderToken } from "./reader-token.js";
