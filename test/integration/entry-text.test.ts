/**
 * Text the database cannot store is a 400 naming the parameter on every route, not only the REST
 * API and the console's procedures: a NUL in /api/sso/authorize's client_id reached Postgres and
 * answered 500. Checked where requests enter, for the routes Next serves. Issue 21, finding 9.
 */
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";

const api = apiServer();

test.each([
  ["/api/sso/authorize?client_id=%00&response_type=code", "client_id", "must not contain NUL"],
  ["/api/sso/authorize?client_id=cp&state=%ED%A0%80", "state", "not valid UTF-8"],
  ["/api/sso/oidc/00000000-0000-4000-8000-000000000000/callback?code=a%00b&state=s", "code", "must not contain NUL"],
  ["/api/sso/profile?x%00=1", "query", "a parameter name must not contain NUL"],
])("GET %s is a 400 naming %s", async (path, name, message) => {
  const res = await fetch(`${api.url}${path}`, { redirect: "manual" });
  expect(res.status).toBe(400);
  const problem = (await res.json()) as { code: string; errors: { path: string; message: string }[] };
  expect(problem.code).toBe("invalid_request");
  expect(problem.errors[0]!.path).toBe(name);
  expect(problem.errors[0]!.message).toContain(message);
});

test("ordinary text passes the entry to the route (which answers the unknown client in OAuth's own shape)", async () => {
  const res = await fetch(`${api.url}/api/sso/authorize?client_id=unknown&response_type=code`, { redirect: "manual" });
  expect(await res.json()).toMatchObject({ error: "invalid_client" });
});
