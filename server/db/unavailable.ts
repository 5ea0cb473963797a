/**
 * Whether an error means the database cannot be reached right now (down, restarting, out of
 * connections, a pool that timed out waiting), as opposed to a fault in what was asked. The API
 * answers those 503 with Retry-After, which clients retry, rather than an opaque 500.
 */

/** SQLSTATEs of a database that is unreachable for now: connection exceptions, shutdowns, too many connections. */
const UNAVAILABLE_STATES = /^(08...|57P01|57P02|57P03|53300)$/;
const UNAVAILABLE_SYSTEM_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection ended unexpectedly",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_SYSTEM_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
    queue.push(cause);
    // Node reports a refused dual-stack connection as an AggregateError of one error per address.
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}
