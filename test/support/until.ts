/**
 * Polls until a condition holds, for what the app does in the background (deliveries, retries, a
 * process's log line); fails after the timeout, naming the condition and the last value read.
 */
import { inspect } from "node:util";

export interface UntilOptions<T> {
  /** How long to keep trying; 10 s unless said. */
  timeoutMs?: number;
  /** The pause between tries; 50 ms unless said. */
  intervalMs?: number;
  /** The failure's message, from the last value read (by default: the condition and that value). */
  message?: (last: T) => string;
}

/** The first value `read` gives for which `holds` is true. */
export async function until<T>(read: () => T | Promise<T>, holds: (value: T) => boolean, options: UntilOptions<T> = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) {
      const message = options.message?.(value) ?? `${holds} did not hold within ${timeoutMs} ms; last value: ${describe(value)}`;
      throw new Error(message);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity });
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
