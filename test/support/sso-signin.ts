/** Shared steps of the SSO sign-in tests: an app over real HTTP, providers, and a browser walking the flow. */
import { randomUUID } from "node:crypto";
import { client, createToken, db, verifiedDomains } from "./fixtures.ts";
import { TestBrowser, type Hop } from "./browser.ts";
import type { TestOp } from "./oidc-op.ts";

export const uniqueDomain = () => `corp-${randomUUID().slice(0, 8)}.example`;

export interface OidcSetup {
  providerId: string;
  clientId: string;
}

/** Creates an OIDC provider in the tenant over REST and registers its client at the OP. */
export async function oidcProvider(
  apiUrl: string,
  adminToken: string,
  tenantId: string,
  op: TestOp,
  options: {
    type?: string;
    metadataUrl?: string;
    domains: string[];
    enabled?: boolean;
    defaultRole?: string;
    /** The domains are made verified domains of the tenant first (default), with auto-join (default on). */
    verified?: boolean;
    autoJoin?: boolean;
  },
): Promise<OidcSetup> {
  const clientId = `client-${randomUUID().slice(0, 8)}`;
  const secret = `secret-${randomUUID()}`;
  if (options.verified !== false) await verifiedDomains(tenantId, options.domains, { autoJoin: options.autoJoin });
  const res = await client(apiUrl, adminToken).post(`/api/v1/tenants/${tenantId}/sso`, {
    provider_type: options.type ?? "oidc",
    name: `OP ${clientId}`,
    metadata_url: options.metadataUrl ?? op.discoveryUrl,
    domains: options.domains,
    enabled: options.enabled ?? true,
    client_id: clientId,
    client_secret: secret,
    ...(options.defaultRole ? { default_role: options.defaultRole } : {}),
  });
  if (res.status !== 201) throw new Error(`provider create failed: ${res.status} ${res.text}`);
  op.addClient({ client_id: clientId, client_secret: secret, redirect_uris: [res.json.sp.redirect_uri] });
  return { providerId: res.json.id, clientId };
}

/**
 * "Continue with SSO" with this email, through the OP's login, up to (not into) the callback to
 * our app: returns the callback URL, or the hop where the flow stopped (a refusal before the IdP).
 */
export async function toCallback(
  browser: TestBrowser,
  apiUrl: string,
  opOrigin: string,
  email: string,
): Promise<{ callback: string | null; start: Hop }> {
  const start = await browser.request(`${apiUrl}/api/sso/signin`, { form: { email } });
  if (!start.location || new URL(start.location).origin !== opOrigin) return { callback: null, start };
  const { next } = await browser.follow(start, (url) => url.origin === opOrigin);
  return { callback: next, start };
}

/** The whole flow: the callback's answer (a redirect, maybe with the session cookie). */
export async function signIn(browser: TestBrowser, apiUrl: string, opOrigin: string, email: string): Promise<Hop> {
  const { callback, start } = await toCallback(browser, apiUrl, opOrigin, email);
  return callback ? browser.request(callback) : start;
}

export const pathOf = (location: string | null) => (location ? new URL(location).pathname + new URL(location).search : null);

export async function sessionCookieOf(browser: TestBrowser): Promise<string> {
  const value = browser.cookie("127.0.0.1", "next-auth.session-token");
  if (!value) throw new Error("no session cookie");
  return `next-auth.session-token=${value}`;
}

export async function eventsOf(tenantId: string | null, type: string) {
  return (await db()).auditEvent.findMany({ where: { tenantId, eventType: type }, orderBy: { sequence: "asc" } });
}

export { createToken };
