/** What other domains may use of API tokens (besides their pure schemas.ts). */
export { revokeTokensIn } from "./service.ts";
