/** What a receiver's `Retry-After` asks of every outbound sender that retries (webhooks, log streams). */

/** A receiver is waited for at most a day, whatever it asks. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const seconds = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : (Date.parse(raw) - now) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(0, Math.ceil(seconds)), MAX_RETRY_AFTER_SECONDS);
}
