/** The audit benchmarks' load: autocannon at `connections` for `seconds`, and the check that every answer was 2xx. */
import autocannon, { type Options, type Result } from "autocannon";

export function load(options: Options, connections: number, seconds: number): Promise<Result> {
  return Promise.resolve(autocannon({ ...options, connections, duration: seconds, timeout: 10 }));
}

export function check(result: Result, what: string): void {
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
}
