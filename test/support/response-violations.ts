/**
 * Where the checks of response-contract.ts keep what they found, apart from it so that setup.ts
 * reads them without loading the app: files that start no test server pay nothing.
 */
const violations: string[] = [];
const pending = new Set<Promise<void>>();

export function recordViolation(violation: string): void {
  violations.push(violation);
}

/** A check under way: awaited before the violations are read. */
export function track(check: Promise<void>): void {
  const done = check.finally(() => pending.delete(done));
  pending.add(done);
}

/** The violations so far, once the checks under way have ended; the list is emptied. */
export async function takeResponseViolations(): Promise<string[]> {
  await Promise.all(pending);
  return violations.splice(0);
}
