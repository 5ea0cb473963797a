/**
 * The SDK's OAuth broker helpers against the local OpenID Provider of the broker tests: the URL
 * `authorizationUrl` builds (PKCE S256, state) carries a browser through the IdP and back with a
 * code; `callbackCode` checks the state; `exchangeCode` and `profile` read the person. Refusals
 * (a wrong verifier, a used code, a bad token) are OAuthErrors.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { BrokerWorld } from "../support/sso-broker.ts";
import { TestBrowser } from "../support/browser.ts";
import { authorizationUrl, callbackCode, exchangeCode, OAuthError, profile } from "../../sdk/src/index.ts";

const api = apiServer({ appUrl: true });
const world = new BrokerWorld(api);
beforeAll(() => world.start());
afterAll(() => world.close());

/** Signs a new person in through the IdP with the SDK's authorization URL; returns where the browser came back. */
async function signIn(extra: { state?: string } = {}) {
  const who = world.person(world.oidc.domain);
  const request = authorizationUrl({
    baseUrl: api.url,
    clientId: world.app.clientId,
    redirectUri: world.app.redirectUri,
    loginHint: who.email,
    ...extra,
  });
  const browser = new TestBrowser();
  const start = await browser.request(request.url);
  const { next } = await browser.follow(start, (u) => u.origin === world.op.origin);
  const back = await browser.request(next!);
  expect(back.status).toBe(303);
  return { who, request, callback: back.location! };
}

const client = () => ({
  baseUrl: api.url,
  clientId: world.app.clientId,
  clientSecret: world.app.clientSecret,
  redirectUri: world.app.redirectUri,
});

test("authorizationUrl → IdP → callbackCode → exchangeCode → profile", async () => {
  const { who, request, callback } = await signIn();
  const url = new URL(request.url);
  expect(url.pathname).toBe("/api/sso/authorize");
  expect(url.searchParams.get("code_challenge_method")).toBe("S256");
  expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(request.codeVerifier).toMatch(/^[A-Za-z0-9_-]{64}$/);

  const code = callbackCode(callback, request.state);
  const token = await exchangeCode({ ...client(), code, codeVerifier: request.codeVerifier });
  expect(token).toMatchObject({ token_type: "Bearer", expires_in: 600 });
  expect(token.profile).toMatchObject({
    email: who.email,
    tenant_id: world.oidc.tenantId,
    provider_id: world.oidc.providerId,
    idp_id: who.sub,
  });
  expect(await profile({ baseUrl: api.url, accessToken: token.access_token })).toEqual(token.profile);
});

test("a callback whose state is not the one sent is refused before any exchange", async () => {
  const { request, callback } = await signIn({ state: "state-one" });
  expect(request.state).toBe("state-one");
  expect(() => callbackCode(callback, "state-two")).toThrow(OAuthError);
});

test("a wrong code verifier is invalid_grant; a used code too; a bad access token is invalid_token", async () => {
  const { request, callback } = await signIn();
  const code = callbackCode(callback, request.state);
  const wrong = await exchangeCode({ ...client(), code, codeVerifier: "x".repeat(64) }).catch((e: unknown) => e);
  expect(wrong).toBeInstanceOf(OAuthError);
  expect(wrong).toMatchObject({ status: 400, error: "invalid_grant" });
  const again = await exchangeCode({ ...client(), code, codeVerifier: request.codeVerifier }).catch((e: unknown) => e);
  expect(again).toMatchObject({ status: 400, error: "invalid_grant" });
  const secret = await exchangeCode({ ...client(), clientSecret: "wrong", code, codeVerifier: request.codeVerifier }).catch(
    (e: unknown) => e,
  );
  expect(secret).toMatchObject({ status: 401, error: "invalid_client" });
  expect(await profile({ baseUrl: api.url, accessToken: "cpsso_nope" }).catch((e: unknown) => e)).toMatchObject({
    status: 401,
    error: "invalid_token",
  });
});
