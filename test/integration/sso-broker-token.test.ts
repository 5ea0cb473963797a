/**
 * The OAuth 2.0 broker's token and profile endpoints refusing, each case its own test, after real
 * sign-ins through a real OpenID Provider on loopback (test/support/sso-broker.ts BrokerWorld).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { BrokerWorld, exchange, pkce, readProfile, registerApplication, type TestApplication } from "../support/sso-broker.ts";
import { apiServer } from "../support/api-server.ts";
import { clock } from "../../server/clock.ts";

const api = apiServer({ appUrl: true });
const world = new BrokerWorld(api);
let app: TestApplication;

const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

beforeAll(async () => {
  await world.start();
  ({ app } = world);
});
afterAll(() => world.close());

const oidcCode = (application?: TestApplication) => world.code(application);

describe("token requests that are refused", () => {
  test("a wrong code_verifier (PKCE mismatch) → invalid_grant, and the code is used up", async () => {
    const { code, verifier } = await oidcCode();
    const wrong = await exchange(api.url, app, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("code_verifier") });
    expect(wrong.headers.get("cache-control")).toBe("no-store");
    expect((await exchange(api.url, app, code, verifier)).json.error).toBe("invalid_grant");
  });

  test("a code used twice → invalid_grant, and the token the first use got is revoked", async () => {
    const { code, verifier } = await oidcCode();
    const first = await exchange(api.url, app, code, verifier);
    expect(first.status).toBe(200);
    const second = await exchange(api.url, app, code, verifier);
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ error: "invalid_grant", error_description: "the code was already used" });
    expect((await readProfile(api.url, first.json.access_token)).status).toBe(401);
  });

  test("a code older than 60 seconds → invalid_grant", async () => {
    const { code, verifier } = await oidcCode();
    const issued = Date.now();
    clock.now = () => new Date(issued + 61_000);
    const late = await exchange(api.url, app, code, verifier);
    expect(late.json).toEqual({ error: "invalid_grant", error_description: "the code has expired" });
  });

  test("a wrong client secret → 401 invalid_client with WWW-Authenticate, by either method", async () => {
    const { code, verifier } = await oidcCode();
    for (const auth of ["basic", "post"] as const) {
      const res = await exchange(api.url, { ...app, clientSecret: "cpsec_wrong" }, code, verifier, auth);
      expect(res.status).toBe(401);
      expect(res.json.error).toBe("invalid_client");
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic realm="sso"/);
    }
    // Not used up by the failed attempts.
    expect((await exchange(api.url, app, code, verifier)).status).toBe(200);
  });

  test("client_secret_basic and client_secret_post both work; both at once is invalid_request", async () => {
    for (const auth of ["basic", "post"] as const) {
      const { code, verifier } = await oidcCode();
      expect((await exchange(api.url, app, code, verifier, auth)).status).toBe(200);
    }
    const { code, verifier } = await oidcCode();
    const pair = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
    const both = await fetch(`${api.url}/api/sso/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${pair}` },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: app.redirectUri,
        code_verifier: verifier,
        client_secret: app.clientSecret,
      }),
    });
    expect(both.status).toBe(400);
    expect((await both.json()).error).toBe("invalid_request");
  });

  test("a code issued to application A, redeemed by application B → invalid_grant (A can still redeem it)", async () => {
    const other = await registerApplication(api.url, world.operatorToken, app.redirectUri);
    const { code, verifier } = await oidcCode(app);
    const stolen = await exchange(api.url, other, code, verifier);
    expect(stolen.json).toEqual({ error: "invalid_grant", error_description: "the code was issued to another client" });
    expect((await exchange(api.url, app, code, verifier)).status).toBe(200);
  });

  test("another redirect_uri than the authorization request's → invalid_grant", async () => {
    const { code, verifier } = await oidcCode();
    const res = await exchange(api.url, { ...app, redirectUri: "http://127.0.0.1:9/other" }, code, verifier);
    expect(res.json.error).toBe("invalid_grant");
  });

  test("grant_type, content type and missing parameters", async () => {
    const post = (body: string, type = "application/x-www-form-urlencoded") =>
      fetch(`${api.url}/api/sso/token`, {
        method: "POST",
        headers: {
          "content-type": type,
          authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
        },
        body,
      }).then(async (r) => ({ status: r.status, json: await r.json() }));
    expect((await post("grant_type=client_credentials")).json.error).toBe("unsupported_grant_type");
    expect((await post("grant_type=authorization_code&code=x")).json).toMatchObject({ error: "invalid_request" });
    expect((await post(JSON.stringify({ grant_type: "authorization_code" }), "application/json")).json.error).toBe("invalid_request");
    expect((await post("grant_type=authorization_code&grant_type=authorization_code")).json.error).toBe("invalid_request");
  });
});

describe("the profile endpoint", () => {
  test("an expired, unknown or missing access token → 401 with WWW-Authenticate", async () => {
    const { code, verifier } = await oidcCode();
    const token = await exchange(api.url, app, code, verifier);
    const issued = Date.now();
    clock.now = () => new Date(issued + 601_000);
    const expired = await readProfile(api.url, token.json.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer realm="sso", error="invalid_token"/);
    clock.now = realNow;
    const unknown = await readProfile(api.url, "cpsso_not-a-token");
    expect(unknown.status).toBe(401);
    expect(unknown.json.error).toBe("invalid_token");
    const missing = await readProfile(api.url, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="sso"');
    // An API token of the control plane is not a broker access token.
    expect((await readProfile(api.url, world.operatorToken)).status).toBe(401);
  });
});
