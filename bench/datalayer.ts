/**
 * The data access of GET /api/v1/tenants alone, in this process, without HTTP: the app's Prisma
 * client (server/db/generated, adapter-pg, a pg Pool of 10) against plain pg on the same Pool
 * size, `concurrency` loops each. Reports operations per second and this process's CPU ms per
 * operation, so the ORM's own cost per request is measured apart from Next and the network.
 */
import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../server/db/generated/client.ts";
import { POOL_SIZE } from "./harness.ts";

export interface DataLayerResult {
  name: string;
  opsPerSec: number;
  cpuMsPerOp: number;
  statementsPerOp: number;
}

async function measure(name: string, statementsPerOp: number, seconds: number, concurrency: number, op: () => Promise<unknown>) {
  const warmUntil = performance.now() + 1_000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmUntil) await op();
    }),
  );
  let ops = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const until = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await op();
        ops += 1;
      }
    }),
  );
  const wall = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { name, opsPerSec: ops / wall, cpuMsPerOp: (used.user + used.system) / 1000 / ops, statementsPerOp };
}

export async function compareDataLayer(databaseUrl: string, token: string, seconds = 3, concurrency = 10): Promise<DataLayerResult[]> {
  const prismaPool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const prisma = new PrismaClient({ adapter: new PrismaPg(prismaPool) });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const tokenHash = createHash("sha256").update(token).digest("hex");
  try {
    const prismaToken = () =>
      prisma.apiToken.findUnique({ where: { tokenHash }, include: { user: { select: { id: true, email: true, platformRole: true } } } });
    const pgToken = () =>
      pool.query(
        `SELECT t.id, t.user_id, t.tenant_id, t.read_only, t.expires_at, t.revoked_at, u.email, u.platform_role
         FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
        [tokenHash],
      );
    const results: DataLayerResult[] = [];
    results.push(await measure("pg: SELECT 1", 1, seconds, concurrency, () => pool.query("SELECT 1")));
    results.push(await measure("Prisma: $queryRaw SELECT 1", 1, seconds, concurrency, () => prisma.$queryRaw`SELECT 1`));
    results.push(await measure("pg: token lookup (join)", 1, seconds, concurrency, pgToken));
    results.push(await measure("Prisma: apiToken.findUnique + include user", 2, seconds, concurrency, prismaToken));
    results.push(
      await measure("pg: token + page + count (GET list)", 3, seconds, concurrency, async () => {
        await pgToken();
        await Promise.all([
          pool.query("SELECT id, name, created_at FROM tenants ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 0"),
          pool.query("SELECT count(*) FROM tenants"),
        ]);
      }),
    );
    results.push(
      await measure("Prisma: token + page + count (GET list)", 4, seconds, concurrency, async () => {
        await prismaToken();
        await Promise.all([
          prisma.tenant.findMany({ where: { AND: [{}, {}] }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: 0, take: 20 }),
          prisma.tenant.count({ where: {} }),
        ]);
      }),
    );
    return results;
  } finally {
    await prisma.$disconnect();
    await prismaPool.end().catch(() => undefined);
    await pool.end();
  }
}
