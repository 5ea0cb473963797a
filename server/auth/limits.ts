/**
 * Failure-counting limits kept in Postgres (auth_failures), so they hold across instances:
 * sign-in per email and per IP, and the step-up lockout per user.
 */
import type { Tx } from "../db/client.ts";
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

/**
 * Seconds until `key` may try again, or 0 when it is not limited: with `max` failures inside the
 * window, it is locked until the oldest of those ages out of the window.
 */
export async function lockedFor(db: Tx, limit: Limit, key: string): Promise<number> {
  const now = clock.now();
  const recent = await db.authFailure.findMany({
    where: { scope: limit.scope, key, createdAt: { gt: new Date(now.getTime() - limit.windowMs) } },
    orderBy: { createdAt: "desc" },
    take: limit.max,
    select: { createdAt: true },
  });
  if (recent.length < limit.max) return 0;
  const oldest = recent[recent.length - 1]!.createdAt.getTime();
  return Math.max(1, Math.ceil((oldest + limit.windowMs - now.getTime()) / 1000));
}

export async function recordFailure(db: Tx, limit: Limit, key: string): Promise<void> {
  await db.authFailure.create({ data: { scope: limit.scope, key, createdAt: clock.now() } });
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
