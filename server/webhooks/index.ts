/**
 * What other domains may use of webhooks (besides their pure schemas.ts): nothing. The public event
 * they deliver is server/events'; the app composes their router, outbox, dispatcher, jobs and gauge.
 */
export {};
