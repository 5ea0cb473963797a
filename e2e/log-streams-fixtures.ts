/**
 * Fixtures for the log streams journey, on top of the identity ones: a real S3-compatible store
 * on 127.0.0.1 (test/support/s3-server.ts: s3rver behind a SigV4 check, so a wrong secret is
 * refused as S3 refuses it; e2e/serve.mjs allows private targets), read back with AWS's client,
 * and the log streams page.
 */
import { startS3, type TestS3 } from "../test/support/s3-server";
import { expect, signInAs, test as base, uniqueName } from "./identity";
import { LogStreamsPage } from "./pages/log-streams-page";

export const BUCKET = "audit-e2e";

/** Where a log object's range starts (`…/{from}-{to}.ndjson.gz`), to put the objects in log order. */
const fromOf = (key: string) => Number(/\/(\d+)-\d+\.ndjson\.gz$/.exec(key)?.[1] ?? 0);

/** The NDJSON lines of every object under `prefix`, parsed, the objects in the order of their ranges. */
export async function linesUnder(s3: TestS3, prefix: string): Promise<Array<Record<string, unknown> & { key: string }>> {
  const lines: Array<Record<string, unknown> & { key: string }> = [];
  for (const key of (await s3.keys(BUCKET, prefix)).sort((a, b) => fromOf(a) - fromOf(b) || a.localeCompare(b))) {
    const { text } = await s3.get(BUCKET, key);
    for (const line of text.split("\n").filter(Boolean)) lines.push({ ...(JSON.parse(line) as Record<string, unknown>), key });
  }
  return lines;
}

export const test = base.extend<{ logStreamsPage: LogStreamsPage }, { s3: TestS3 }>({
  s3: [
    async ({}, provide) => {
      const s3 = await startS3({ buckets: [BUCKET] });
      await provide(s3);
      await s3.close();
    },
    { scope: "worker" },
  ],
  logStreamsPage: async ({ page }, provide) => provide(new LogStreamsPage(page)),
});

export { expect, signInAs, uniqueName };
export type { TestS3 };
