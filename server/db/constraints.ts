/**
 * Whether an error is the database refusing a write by a named constraint (a check, a unique index,
 * a constraint trigger such as `memberships_last_admin`), however the driver or Prisma wrapped it.
 */
export function violates(error: unknown, constraint: string): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const {
      constraint: name,
      message,
      meta,
      cause,
    } = current as { constraint?: unknown; message?: unknown; meta?: unknown; cause?: unknown };
    if (name === constraint) return true;
    if (typeof message === "string" && message.includes(constraint)) return true;
    if (meta && JSON.stringify(meta).includes(constraint)) return true;
    queue.push(cause);
  }
  return false;
}

/** The last-admin rule's backstop (server/members/admins.ts owns the rule): a violation is a 409. */
export const LAST_ADMIN_CONSTRAINT = "memberships_last_admin";
