import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { database, openPglite } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { bootstrap } from "../../server/account/bootstrap.ts";
import { checkCredentials } from "../../server/account/users.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { parseEnv } from "../../server/env.ts";

const TOKEN = "cp_bootstrap-token-bootstrap-token-bootstrap";

test("bootstrap env creates the operator and its token once, however often the app starts", async () => {
  const db = await database();
  const env = parseEnv({ BOOTSTRAP_ADMIN_EMAIL: "Root@Example.com", BOOTSTRAP_ADMIN_PASSWORD: "first-password", BOOTSTRAP_TOKEN: TOKEN });
  await Promise.all([bootstrap(db, env), bootstrap(db, env)]);
  await bootstrap(db, env);
  const users = await db.prisma.user.findMany({ where: { email: "root@example.com" } });
  expect(users).toHaveLength(1);
  expect(users[0]!.platformRole).toBe("operator");
  const tokens = await db.prisma.apiToken.findMany({ where: { userId: users[0]!.id } });
  expect(tokens).toHaveLength(1);
  expect(tokens[0]!.tokenHash).toBe(hashToken(TOKEN));
  expect(await checkCredentials(db.prisma, "root@example.com", "first-password")).not.toBeNull();

  // A changed password in the environment takes effect; a revoked bootstrap token stays revoked.
  await db.prisma.apiToken.update({ where: { id: tokens[0]!.id }, data: { revokedAt: new Date() } });
  await bootstrap(
    db,
    parseEnv({ BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "second-password", BOOTSTRAP_TOKEN: TOKEN }),
  );
  expect(await checkCredentials(db.prisma, "root@example.com", "second-password")).not.toBeNull();
  expect(await checkCredentials(db.prisma, "root@example.com", "first-password")).toBeNull();
  expect((await db.prisma.apiToken.findFirstOrThrow({ where: { id: tokens[0]!.id } })).revokedAt).not.toBeNull();
});

test("the embedded database seeds a demo operator on first run and tells how to sign in", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cp-demo-"));
  const lite = await openPglite(path.join(dir, "pglite"));
  try {
    await migrate(lite.sql);
    const env = parseEnv({ DATA_DIR: dir });
    const notes = await bootstrap(lite, env);
    const credentials = readFileSync(path.join(dir, "demo-credentials.txt"), "utf8");
    const password = /password: (\S+)/.exec(credentials)![1]!;
    expect(notes.join("\n")).toContain(`sign in as admin@example.com with password ${password}`);
    expect(await checkCredentials(lite.prisma, "admin@example.com", password)).not.toBeNull();
    // Second start: no second user, same credentials shown.
    expect((await bootstrap(lite, env)).join("\n")).toContain(password);
    expect(await lite.prisma.user.count()).toBe(1);
  } finally {
    await lite.close();
  }
}, 60_000);
