/** The audit benchmarks' load: autocannon at `connections` for `seconds`, and the check that every answer was 2xx. */
import autocannon, { type Options, type Result } from "autocannon";

/**
 * autocannon runs whole seconds; under one (the smoke runs) the load is a count instead: 20
 * requests per connection per second asked, at least one round per connection.
 */
export function load(options: Options, connections: number, seconds: number): Promise<Result> {
  const size = seconds >= 1 ? { duration: seconds } : { amount: Math.max(connections, Math.round(seconds * connections * 20)) };
  return Promise.resolve(autocannon({ ...options, connections, ...size, timeout: 10 }));
}

export function check(result: Result, what: string): void {
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
}
