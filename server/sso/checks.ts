/**
 * Runs metadata checks and stores their results. A check runs after the change that asks for it
 * has committed (the response does not wait for it); a refresh runs one and waits. A result is
 * stored only if the provider still has the URL (or uploaded document) that was checked, so a slow
 * check cannot overwrite the result for a newer one. An uploaded document is read again, never
 * fetched. Checks left pending by a stopped process are picked up by
 * housekeeping.
 */
import type { Database } from "../db/client.ts";
import { clock } from "../clock.ts";
import { log, errorFields } from "../log.ts";
import { checkProviderMetadata } from "./metadata.ts";

const running = new Set<Promise<void>>();

export async function runMetadataCheck(db: Database, providerId: string): Promise<void> {
  const provider = await db.prisma.ssoProvider.findUnique({ where: { id: providerId } });
  if (!provider) return;
  const result = await checkProviderMetadata(provider);
  await db.prisma.ssoProvider.updateMany({
    where: { id: providerId, metadataUrl: provider.metadataUrl, metadataXml: provider.metadataXml },
    data: {
      metadataStatus: result.status,
      metadataError: result.error,
      metadataDetails: result.details as object,
      metadataCheckedAt: clock.now(),
      ...(result.protocol ? { protocol: result.protocol } : {}),
    },
  });
}

/** Starts a check in the background; failures are logged, never thrown at the caller. */
export function scheduleMetadataCheck(db: Database, providerId: string): void {
  const task = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => runMetadataCheck(db, providerId))
    .catch((error) => log.error("metadata check failed", { provider_id: providerId, ...errorFields(error) }))
    .finally(() => running.delete(task));
  running.add(task);
}

/** Resolves when every background check started so far has finished (tests, shutdown). */
export async function metadataChecksIdle(): Promise<void> {
  while (running.size) await Promise.all([...running]);
}

/** Housekeeping: re-runs checks left pending for over a minute (their process stopped). */
export async function recheckStalePending(db: Database): Promise<number> {
  const stale = await db.prisma.ssoProvider.findMany({
    where: { metadataStatus: "pending", updatedAt: { lt: new Date(clock.now().getTime() - 60_000) } },
    select: { id: true },
    take: 20,
  });
  for (const { id } of stale) await runMetadataCheck(db, id);
  return stale.length;
}
