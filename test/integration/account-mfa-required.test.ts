/**
 * PLATFORM_REQUIRE_MFA=true (issue 41): operators and support must enrol a second factor before
 * the console lets them do anything but manage their own account; their API tokens and tenant
 * users are not concerned. Runs in a process of its own (it sets the environment).
 */
import { afterEach, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser } from "../support/fixtures.ts";
import { consoleSignIn, cookieOf, totpCode, trpcCall } from "../support/mfa.ts";
import { clock } from "../../server/clock.ts";
import { exportAuditSearch } from "../../server/http/audit-export.ts";
import { createConsoleContext } from "../../server/trpc/create-context.ts";

process.env.PLATFORM_REQUIRE_MFA = "true";

const api = apiServer();
const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});
const PASSWORD = "right-password-41";

test("an operator without a second factor may only enrol; once enrolled the console works, and the last factor cannot be removed", async () => {
  const user = await createUser({ platformRole: "operator", password: PASSWORD });
  const cookie = cookieOf(await consoleSignIn(user.email, PASSWORD));

  const blocked = await trpcCall(api.url, cookie, "tenants.list", {}, "GET");
  expect(blocked.status).toBe(403);
  expect(blocked.error?.data?.appCode).toBe("mfa_enrollment_required");
  // Their own account still answers: who they are, step-up, the enrolment.
  expect((await trpcCall(api.url, cookie, "account.me", {}, "GET")).status).toBe(200);
  const status = await trpcCall(api.url, cookie, "account.mfa.status", {}, "GET");
  expect(status.data).toMatchObject({ enrollment_required: true, factors: [] });

  // Nor does the console's audit export (a route of its own, with the session cookie).
  const exportReq = new Request(`${api.url}/api/console/audit/export?event_type=user.login`, { headers: { cookie } });
  const exported = await exportAuditSearch(exportReq, () => createConsoleContext(exportReq, "t"), "t");
  expect(exported.status).toBe(403);
  expect(((await exported.json()) as { code: string }).code).toBe("mfa_enrollment_required");

  // REST tokens are not concerned.
  expect((await client(api.url, await createToken(user.id)).get("/api/v1/tenants")).status).toBe(200);

  expect((await trpcCall(api.url, cookie, "account.stepUp", { password: PASSWORD })).status).toBe(200);
  const started = await trpcCall(api.url, cookie, "account.mfa.startTotp", {});
  const confirmed = await trpcCall(api.url, cookie, "account.mfa.confirmTotp", {
    factor_id: started.data.factor_id,
    code: totpCode(started.data.secret),
  });
  expect(confirmed.status).toBe(200);

  expect((await trpcCall(api.url, cookie, "tenants.list", {}, "GET")).status).toBe(200);
  expect((await trpcCall(api.url, cookie, "account.mfa.status", {}, "GET")).data.enrollment_required).toBe(false);
  const removed = await trpcCall(api.url, cookie, "account.mfa.remove", { factor_id: started.data.factor_id });
  expect(removed.status).toBe(409);
});

test("tenant users are not asked to enrol", async () => {
  const user = await createUser({ password: PASSWORD });
  const cookie = cookieOf(await consoleSignIn(user.email, PASSWORD));
  expect((await trpcCall(api.url, cookie, "tenants.list", {}, "GET")).status).toBe(200);
  expect((await trpcCall(api.url, cookie, "account.mfa.status", {}, "GET")).data.enrollment_required).toBe(false);
});
