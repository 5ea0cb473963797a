/**
 * What other domains may use of setup links (besides their pure schemas.ts): nothing yet. The
 * guided flows call the other domains; the app composes their routers.
 */
export {};
