/** What other domains may use of invitations (besides their pure schemas.ts). */
export { hasPendingInvitations } from "./accept.ts";
export { createInvitation } from "./service.ts";
