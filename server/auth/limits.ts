/**
 * Failure-counting limits kept in Postgres (auth_failures), so they hold across instances:
 * sign-in per email and per IP, the step-up lockout per user (which a password change shares:
 * both re-check the password of someone holding a session), password reset requests per email
 * and per IP.
 *
 * An attempt is taken before the password is checked (`takeAttempt`): counted and recorded in one
 * transaction under a lock per key, so parallel attempts cannot all pass a check made before any
 * of them was recorded. It stands as a failure unless the attempt succeeds and releases it.
 */
import type { Tx } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { clock } from "../clock.ts";

export interface Limit {
  scope: "login_email" | "login_ip" | "step_up" | "reset_email" | "reset_ip";
  max: number;
  windowMs: number;
}

export const LIMITS = {
  loginEmail: { scope: "login_email", max: 5, windowMs: 15 * 60_000 },
  loginIp: { scope: "login_ip", max: 30, windowMs: 15 * 60_000 },
  stepUp: { scope: "step_up", max: 5, windowMs: 15 * 60_000 },
  // Password reset requests count every request (each may send a mail), as sign-in counts failures.
  resetEmail: { scope: "reset_email", max: 5, windowMs: 15 * 60_000 },
  resetIp: { scope: "reset_ip", max: 30, windowMs: 15 * 60_000 },
} as const satisfies Record<string, Limit>;

export interface LimitedKey {
  limit: Limit;
  key: string;
}

export type Attempt = { ok: true; ids: string[] } | { ok: false; retryAfterSeconds: number };

/**
 * Takes one attempt under every given limit, or none: under a transaction-scoped advisory lock
 * per (scope, key), taken in a fixed order so two attempts never wait on each other, it counts
 * each window and records the attempt only when all of them have room. Answers the recorded rows
 * (a failure each until `releaseAttempt`) or how long to wait.
 */
export async function takeAttempt(sql: SqlRunner, keys: LimitedKey[]): Promise<Attempt> {
  const now = clock.now();
  const locks = [...new Set(keys.map(({ limit, key }) => `${limit.scope}:${key}`))].sort();
  return sql.transaction(async (tx) => {
    for (const lock of locks) await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [lock]);
    let wait = 0;
    for (const { limit, key } of keys) {
      const recent = await tx.query<{ created_at: Date }>(
        `SELECT created_at FROM auth_failures WHERE scope = $1 AND key = $2 AND created_at > $3
         ORDER BY created_at DESC LIMIT $4`,
        [limit.scope, key, new Date(now.getTime() - limit.windowMs), limit.max],
      );
      if (recent.length < limit.max) continue;
      const oldest = new Date(recent[recent.length - 1]!.created_at).getTime();
      wait = Math.max(wait, Math.max(1, Math.ceil((oldest + limit.windowMs - now.getTime()) / 1000)));
    }
    if (wait > 0) return { ok: false, retryAfterSeconds: wait };
    const rows = await tx.query<{ id: string }>(
      `INSERT INTO auth_failures (scope, key, created_at) SELECT unnest($1::text[]), unnest($2::text[]), $3 RETURNING id`,
      [keys.map(({ limit }) => limit.scope), keys.map(({ key }) => key), now],
    );
    return { ok: true, ids: rows.map((row) => row.id) };
  });
}

/** The attempt succeeded: it no longer counts as a failure. */
export async function releaseAttempt(db: Tx, attempt: { ids: string[] }): Promise<void> {
  await db.authFailure.deleteMany({ where: { id: { in: attempt.ids } } });
}

export async function clearFailures(db: Tx, limit: Limit, key: string): Promise<void> {
  await db.authFailure.deleteMany({ where: { scope: limit.scope, key } });
}

/** Housekeeping: failures older than every window no longer count. */
export async function purgeOldFailures(db: Tx): Promise<number> {
  const longest = Math.max(...Object.values(LIMITS).map((l) => l.windowMs));
  const { count } = await db.authFailure.deleteMany({ where: { createdAt: { lt: new Date(clock.now().getTime() - longest) } } });
  return count;
}
