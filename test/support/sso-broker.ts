/** Steps of the OAuth broker tests: an application registered over REST, PKCE, and the client's side of the flow. */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { client, operator, tenantWithMembers } from "./fixtures.ts";
import { TestBrowser, type Hop } from "./browser.ts";
import type { ApiServer } from "./api-server.ts";
import { startOidcOp, type TestOp } from "./oidc-op.ts";
import { oidcProvider, uniqueDomain } from "./sso-signin.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

export interface TestApplication {
  id: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Registers an application as an operator (redirect URI on loopback: nothing needs to listen there). */
export async function registerApplication(apiUrl: string, operatorToken: string, redirectUri?: string): Promise<TestApplication> {
  const uri = redirectUri ?? `http://127.0.0.1:9/callback/${randomBytes(4).toString("hex")}?app=1`;
  const res = await client(apiUrl, operatorToken).post("/api/v1/sso/applications", { name: "Broker test app", redirect_uris: [uri] });
  if (res.status !== 201) throw new Error(`application create failed: ${res.status} ${res.text}`);
  return { id: res.json.id, clientId: res.json.client_id, clientSecret: res.json.client_secret, redirectUri: uri };
}

export function pkce() {
  const verifier = randomBytes(48).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The authorization request a client app sends the browser to. */
export function authorizeUrl(apiUrl: string, app: TestApplication, challenge: string, extra: Record<string, string>): string {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    state: `st-${randomBytes(6).toString("hex")}`,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  });
  return `${apiUrl}/api/sso/authorize?${params}`;
}

/** Where a hop sends the browser back to the application: its query parameters. */
export function returned(hop: Hop, app: TestApplication): URLSearchParams {
  if (!hop.location) throw new Error(`no redirect (${hop.status}): ${hop.text.slice(0, 200)}`);
  const url = new URL(hop.location);
  const registered = new URL(app.redirectUri);
  if (url.origin + url.pathname !== registered.origin + registered.pathname) throw new Error(`redirected elsewhere: ${hop.location}`);
  return url.searchParams;
}

export type TokenAuth = "basic" | "post";

/** The application's POST /api/sso/token. */
export async function exchange(
  apiUrl: string,
  app: Pick<TestApplication, "clientId" | "clientSecret" | "redirectUri">,
  code: string,
  verifier: string,
  auth: TokenAuth = "basic",
) {
  const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (auth === "basic") {
    const pair = `${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  } else {
    form.set("client_id", app.clientId);
    form.set("client_secret", app.clientSecret);
  }
  const res = await fetch(`${apiUrl}/api/sso/token`, { method: "POST", headers, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

export async function readProfile(apiUrl: string, accessToken: string | null) {
  const res = await fetch(`${apiUrl}/api/sso/profile`, { headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {} });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/**
 * What the broker tests share: the app over real HTTP (`apiServer({ appUrl: true })`, passed in), a
 * real OpenID Provider, an operator, a registered application, and one tenant with an enabled OIDC
 * provider.
 */
export class BrokerWorld {
  op!: TestOp;
  operatorToken!: string;
  app!: TestApplication;
  oidc!: { tenantId: string; providerId: string; domain: string };

  constructor(readonly api: ApiServer) {}

  async start(): Promise<void> {
    this.op = await startOidcOp();
    this.operatorToken = (await operator()).token;
    this.app = await registerApplication(this.api.url, this.operatorToken);
    const world = await tenantWithMembers();
    const domain = uniqueDomain();
    const { providerId } = await oidcProvider(this.api.url, world.admin.token, world.tenant.id, this.op, { domains: [domain] });
    this.oidc = { tenantId: world.tenant.id, providerId, domain };
  }

  async close(): Promise<void> {
    await metadataChecksIdle();
    await this.op.close();
  }

  /** A person the OP can sign in (by login_hint, or `op.loginAs = sub`). */
  person(domain: string) {
    const sub = `sub-${randomUUID().slice(0, 8)}`;
    const email = `${sub}@${domain}`;
    this.op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Ada", family_name: "Lovelace", groups: ["engineering"] });
    return { sub, email };
  }

  /** The OIDC flow up to the redirect back to the application (the browser stops there). */
  async flow(extra: Record<string, string>, application = this.app) {
    const { verifier, challenge } = pkce();
    const browser = new TestBrowser();
    const url = authorizeUrl(this.api.url, application, challenge, extra);
    const start = await browser.request(url);
    let back: Hop = start;
    if (start.location && new URL(start.location).origin === this.op.origin) {
      const { next } = await browser.follow(start, (u) => u.origin === this.op.origin);
      back = await browser.request(next!);
    }
    return { browser, back, verifier, state: new URL(url).searchParams.get("state")! };
  }

  /** A fresh code for a new person of the shared OIDC provider. */
  async code(application = this.app) {
    const who = this.person(this.oidc.domain);
    const flow = await this.flow({ login_hint: who.email }, application);
    const params = returned(flow.back, application);
    if (params.get("error")) throw new Error(`no code: ${params}`);
    return { ...flow, who, code: params.get("code")! };
  }
}
