/**
 * Start-up accounts. BOOTSTRAP_ADMIN_EMAIL/PASSWORD(/TOKEN) create the operator and its token,
 * idempotently (a revoked bootstrap token stays revoked). On the embedded database with no users
 * yet, a demo operator is created and its credentials are written to DATA_DIR.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "../db/client.ts";
import type { Env } from "../env.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import { hashToken, lastFourOf } from "../auth/tokens.ts";
import { normalizeEmail } from "./users.ts";

async function ensureOperator(db: Database, email: string, password: string) {
  const normalized = normalizeEmail(email);
  // INSERT … ON CONFLICT DO NOTHING: instances starting at once create the user once.
  await db.prisma.user.createMany({
    data: [{ email: normalized, name: "Operator", passwordHash: await hashPassword(password), platformRole: "operator" }],
    skipDuplicates: true,
  });
  const user = await db.prisma.user.findUniqueOrThrow({ where: { email: normalized } });
  const passwordOk = await verifyPassword(password, user.passwordHash);
  if (passwordOk && user.platformRole === "operator") return user;
  return db.prisma.user.update({
    where: { id: user.id },
    data: { platformRole: "operator", ...(passwordOk ? {} : { passwordHash: await hashPassword(password) }) },
  });
}

async function ensureToken(db: Database, userId: string, value: string, name: string) {
  await db.prisma.apiToken.createMany({
    data: [{ userId, name, tokenHash: hashToken(value), lastFour: lastFourOf(value) }],
    skipDuplicates: true,
  });
}

export async function bootstrap(db: Database, env: Env): Promise<string[]> {
  const notes: string[] = [];
  if (env.BOOTSTRAP_ADMIN_EMAIL && env.BOOTSTRAP_ADMIN_PASSWORD) {
    const user = await ensureOperator(db, env.BOOTSTRAP_ADMIN_EMAIL, env.BOOTSTRAP_ADMIN_PASSWORD);
    if (env.BOOTSTRAP_TOKEN) await ensureToken(db, user.id, env.BOOTSTRAP_TOKEN, "Bootstrap token");
    notes.push(`Operator ${user.email} is ready${env.BOOTSTRAP_TOKEN ? " with the BOOTSTRAP_TOKEN API token" : ""}.`);
  }
  if (db.kind === "pglite") notes.push(...(await seedDemo(db, env)));
  return notes;
}

const DEMO_EMAIL = "admin@example.com";

async function seedDemo(db: Database, env: Env): Promise<string[]> {
  const file = path.resolve(env.DATA_DIR, "demo-credentials.txt");
  if ((await db.prisma.user.count()) === 0) {
    const password = randomBytes(9).toString("base64url");
    await ensureOperator(db, DEMO_EMAIL, password);
    writeFileSync(file, `email: ${DEMO_EMAIL}\npassword: ${password}\n`, { mode: 0o600 });
  }
  if (!existsSync(file)) return [];
  const [email, password] = readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.split(": ")[1]);
  return [`Demo operator: sign in as ${email} with password ${password} (kept in ${file}).`];
}
