import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { db } from "../support/fixtures.ts";
import { hashToken } from "../../server/auth/tokens.ts";

const run = promisify(execFile);

async function cli(...args: string[]) {
  const { stdout } = await run("node_modules/.bin/tsx", ["--import", "./scripts/server-only.mjs", "scripts/cli.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent" },
  });
  return JSON.parse(stdout);
}

test("the CLI creates a user, a tenant, a membership and a token for scripted setups", async () => {
  const user = await cli("user", "create", "--email", "Scripted@Example.com", "--password", "scripted-pass");
  expect(user).toMatchObject({ email: "scripted@example.com", platform_role: null });
  const tenant = await cli("tenant", "create", "--name", "Scripted Co");
  const member = await cli("member", "add", "--tenant", tenant.id, "--email", "scripted@example.com", "--role", "admin");
  expect(member).toMatchObject({ tenant_id: tenant.id, user_id: user.id, role: "admin" });
  const token = await cli("token", "create", "--email", "scripted@example.com", "--name", "ci", "--tenant", tenant.id, "--read-only");
  expect(token).toMatchObject({ user_id: user.id, tenant_id: tenant.id, read_only: true });
  const row = await (await db()).apiToken.findUniqueOrThrow({ where: { id: token.id } });
  expect(row.tokenHash).toBe(hashToken(token.token));
}, 60_000);

test("the CLI names a bad argument and exits non-zero", async () => {
  await expect(cli("member", "add", "--tenant", "x", "--email", "nope", "--role", "admin")).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringMatching(/email/),
  });
}, 30_000);
