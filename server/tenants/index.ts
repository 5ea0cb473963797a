/**
 * What other domains may use of tenants (besides their pure schemas.ts): nothing yet. Pages read
 * them through tenants/pages.ts, an entry point of the console's server components.
 */
export {};
