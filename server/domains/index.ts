/** What other domains may use of verified domains (besides its pure schemas.ts). */
export { domainOf, verifiedDomainsOf } from "./ownership.ts";
export { domainAccess, routesInAnotherTenant, type DomainAccess } from "./routing.ts";
export { createDomain, listDomains, presentDomain, verifyDomain } from "./service.ts";
