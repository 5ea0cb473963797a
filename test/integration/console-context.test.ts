import { expect, test } from "vitest";
import { encode } from "next-auth/jwt";
import { createConsoleContext } from "../../server/trpc/create-context.ts";
import { secrets } from "../../server/secrets/store.ts";
import { createUser } from "../support/fixtures.ts";
import { recordSession } from "../support/console-caller.ts";
import { endSessions } from "../../server/auth/sessions.ts";
import { database } from "../../server/db/client.ts";
import { randomUUID } from "node:crypto";

test("the console context finds the signed-in user from the session cookie", async () => {
  const user = await createUser({ platformRole: "operator" });
  const sid = await recordSession(user.id);
  const jwt = await encode({ token: { sub: user.id, email: user.email, sid }, secret: secrets().nextauthSecret });
  const req = new Request("http://localhost/api/trpc/tenants.list", {
    headers: { cookie: `theme=dark; next-auth.session-token=${jwt}` },
  });
  const ctx = await createConsoleContext(req, "req-1");
  expect(ctx.principal).toMatchObject({ userId: user.id, email: user.email, platformRole: "operator", via: "session" });

  const anonymous = await createConsoleContext(new Request("http://localhost/api/trpc/tenants.list"), "req-2");
  expect(anonymous.principal).toBeNull();
  const forged = await createConsoleContext(
    new Request("http://localhost/api/trpc/tenants.list", { headers: { cookie: "next-auth.session-token=forged" } }),
    "req-3",
  );
  expect(forged.principal).toBeNull();
});

test("a cookie names a live session of its user: no row, another user's row, an ended row all resolve to no one", async () => {
  const user = await createUser();
  const other = await createUser();
  const contextOf = async (token: Record<string, unknown>) => {
    const jwt = await encode({ token, secret: secrets().nextauthSecret });
    return createConsoleContext(new Request("http://localhost/api/trpc/x", { headers: { cookie: `next-auth.session-token=${jwt}` } }), "r");
  };
  // A cookie from before sessions were kept on the server (no sid), or naming a sid never recorded.
  expect((await contextOf({ sub: user.id })).principal).toBeNull();
  expect((await contextOf({ sub: user.id, sid: randomUUID() })).principal).toBeNull();
  // Another user's session, under this user's id.
  expect((await contextOf({ sub: user.id, sid: await recordSession(other.id) })).principal).toBeNull();
  const sid = await recordSession(user.id);
  expect((await contextOf({ sub: user.id, sid })).principal).toMatchObject({ userId: user.id, sessionId: sid });
  await endSessions((await database()).sql, { sessionId: sid }, "signed_out");
  expect((await contextOf({ sub: user.id, sid })).principal).toBeNull();
});
