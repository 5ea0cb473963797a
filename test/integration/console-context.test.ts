import { expect, test } from "vitest";
import { encode } from "next-auth/jwt";
import { createConsoleContext } from "../../server/trpc/create-context.ts";
import { secrets } from "../../server/secrets/store.ts";
import { createUser } from "../support/fixtures.ts";

test("the console context finds the signed-in user from the session cookie", async () => {
  const user = await createUser({ platformRole: "operator" });
  const jwt = await encode({ token: { sub: user.id, email: user.email }, secret: secrets().nextauthSecret });
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
