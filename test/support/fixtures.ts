/** Users, tokens and tenants made directly in the test database. */
import { randomBytes } from "node:crypto";
import { database } from "../../server/db/client.ts";
import { generateTokenValue, hashToken } from "../../server/auth/tokens.ts";
import { hashPassword } from "../../server/auth/password.ts";

export async function db() {
  return (await database()).prisma;
}

/**
 * One hash per fixture password for the whole file: a production-strength scrypt costs ~100 ms of
 * CPU, and fixtures make hundreds of users. The stored hash is a real one (its own salt, the
 * production parameters), so signing in with the password works as for any account.
 */
const fixtureHashes = new Map<string, Promise<string>>();
function fixtureHash(password: string): Promise<string> {
  let hash = fixtureHashes.get(password);
  if (!hash) fixtureHashes.set(password, (hash = hashPassword(password)));
  return hash;
}

export async function createUser(options: { platformRole?: "operator" | "support" | null; password?: string; email?: string } = {}) {
  const prisma = await db();
  return prisma.user.create({
    data: {
      email: options.email ?? `user-${randomBytes(5).toString("hex")}@example.com`,
      platformRole: options.platformRole ?? null,
      passwordHash: options.password ? await fixtureHash(options.password) : null,
    },
  });
}

export async function createToken(
  userId: string,
  options: { readOnly?: boolean; expiresAt?: Date; revokedAt?: Date; tenantId?: string } = {},
): Promise<string> {
  const value = generateTokenValue();
  const prisma = await db();
  await prisma.apiToken.create({
    data: {
      userId,
      name: "test",
      tokenHash: hashToken(value),
      readOnly: options.readOnly ?? false,
      expiresAt: options.expiresAt,
      revokedAt: options.revokedAt,
      tenantId: options.tenantId,
    },
  });
  return value;
}

/** An operator and a token for it. */
export async function operator() {
  const user = await createUser({ platformRole: "operator" });
  return { user, token: await createToken(user.id) };
}

export async function createTenant(name = `Tenant ${randomBytes(3).toString("hex")}`) {
  return (await db()).tenant.create({ data: { name } });
}

export function client(baseUrl: string, token?: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: any = undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call("POST", path, body, headers),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => call("PATCH", path, body, headers),
    delete: (path: string, headers?: Record<string, string>) => call("DELETE", path, undefined, headers),
    call,
  };
}

/** A tenant with an admin and a viewer, each with a token. */
export async function tenantWithMembers(name = `Tenant ${randomBytes(3).toString("hex")}`) {
  const prisma = await db();
  const tenant = await prisma.tenant.create({ data: { name } });
  const admin = await createUser({ password: "admin-password" });
  const viewer = await createUser({ password: "viewer-password" });
  await prisma.membership.createMany({
    data: [
      { tenantId: tenant.id, userId: admin.id, role: "admin" },
      { tenantId: tenant.id, userId: viewer.id, role: "viewer" },
    ],
  });
  return {
    tenant,
    admin: { user: admin, token: await createToken(admin.id) },
    viewer: { user: viewer, token: await createToken(viewer.id) },
  };
}

/**
 * Makes these domains verified domains of the tenant (as an operator's override would), so an
 * enabled SSO provider may route them; `autoJoin` (default on) lets new people join by signing in.
 * `legacy`: pending instead, routing as a domain a provider had before domains were verified (the
 * migration's routes_while_pending), which several tenants may hold at once.
 */
export async function verifiedDomains(
  tenantId: string,
  domains: string[],
  options: { autoJoin?: boolean; legacy?: boolean } = {},
): Promise<void> {
  const { sql } = await database();
  const legacy = options.legacy ?? false;
  for (const domain of domains) {
    await sql.query(
      `INSERT INTO domains (tenant_id, domain, state, verification_value, verification_method, verified_at, auto_join, routes_while_pending)
       VALUES ($1::uuid, $2, $4, 'control-plane-verification=' || replace(gen_random_uuid()::text, '-', ''),
               CASE WHEN $5 THEN NULL ELSE 'override' END, CASE WHEN $5 THEN NULL ELSE now() END, $3, $5)
       ON CONFLICT (tenant_id, domain) DO UPDATE SET state = EXCLUDED.state, verified_at = EXCLUDED.verified_at,
         verification_method = EXCLUDED.verification_method, auto_join = $3, routes_while_pending = $5`,
      [tenantId, domain, options.autoJoin ?? true, legacy ? "pending" : "verified", legacy],
    );
  }
}
