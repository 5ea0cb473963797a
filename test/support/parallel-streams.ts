/**
 * Parallel clients for the rate-limit tests: `streams` sequences of calls running side by side, as
 * a browser's or a script's parallel connections do, each call waiting for the one before it.
 */

/** `streams` × `each` calls; the statuses, stream by stream. */
export async function parallelStreams(streams: number, each: number, call: () => Promise<number>): Promise<number[][]> {
  return Promise.all(
    Array.from({ length: streams }, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < each; i++) statuses.push(await call());
      return statuses;
    }),
  );
}

/** Calls in `streams` parallel sequences, each until its first 429 (or `cap` calls); how many were not 429. */
export async function servedUntilRefused(streams: number, call: () => Promise<number>, cap = 10_000): Promise<number> {
  let served = 0;
  await Promise.all(
    Array.from({ length: streams }, async () => {
      for (let i = 0; i < cap && (await call()) !== 429; i++) served += 1;
    }),
  );
  return served;
}
