/** What other domains may use of members (besides their pure schemas.ts). */
export { keepsAnAdminWhoCanSignIn, TenantAdmins } from "./admins.ts";
export {
  changeMemberRolesIn,
  createMembershipsIn,
  governMembershipsIn,
  removeMembershipsIn,
  type MemberRef,
  type NewMembership,
} from "./memberships.ts";
