/**
 * What other domains may use of log streams (besides their pure schemas.ts): nothing yet. They
 * follow the audit log; the app composes their router, dispatcher, jobs and gauge.
 */
export {};
