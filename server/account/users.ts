/** Users: the credentials check of sign-in, and creating users outside any tenant. */
import { type Tx, sqlIn } from "../db/client.ts";
import { Conflict } from "../errors.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { ServiceContext } from "../service-context.ts";
import type { PlatformRole } from "../auth/principal.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user for an email and password, or null (same time spent either way). */
export async function checkCredentials(db: Tx, email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) } });
  const ok = await verifyPassword(password, user?.passwordHash);
  return ok && user ? user : null;
}

/** Creates a user outside any tenant (CLI, scripted setups); an existing email is a conflict. */
export async function createUser(
  { db, actor }: ServiceContext,
  input: { email: string; password?: string; name?: string; platformRole?: PlatformRole | null },
) {
  const email = normalizeEmail(input.email);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.prisma.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email } })) throw Conflict(`A user with email ${email} already exists`);
    const user = await tx.user.create({
      data: { email, name: input.name ?? null, passwordHash, platformRole: input.platformRole ?? null },
    });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "user.created",
      tenantId: null,
      target: { type: "user", id: user.id, name: user.email },
      details: { email, platform_role: user.platformRole },
    });
    return user;
  });
}
