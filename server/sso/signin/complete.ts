/**
 * The end of every sign-in, whatever the protocol: a refusal is audited (refusal.ts); a profile
 * signs the person in to the provider's tenant (creating the user and membership on first sign-in),
 * or, for a Test sign-in, is kept for the admin and creates nothing, or, for the OAuth broker,
 * becomes a one-time code for the application (server/sso/broker/grants.ts), creating no user and
 * no session.
 *
 * The account-takeover rule: the session this issues carries `ssoTenantId`. Every principal built
 * from it (server/auth/policy.ts) reaches that tenant only and holds no platform role, so a tenant's
 * IdP can never open another tenant's data or the platform to whoever it vouches for.
 */
import { type Database, type Tx, sqlIn } from "../../db/client.ts";
import type { RequestInfo, TenantRole } from "../../auth/principal.ts";
import { emitEvent, type EventActor } from "../../events/emit.ts";
import { startSession } from "../../auth/sessions.ts";
import { storeTestResult } from "./pending.ts";
import { loginErrorPath, recordRefusal, testResultPath } from "./refusal.ts";
import { issueCode } from "../broker/grants.ts";
import { errorLocation } from "../broker/oauth.ts";
import { domainOf } from "../../domains/index.ts";
import { directoryStandingOf, type DirectoryStanding } from "../../directories/index.ts";
import {
  SsoRefused,
  type CompleteSignIn,
  type PendingSignIn,
  type SignInProvider,
  type SignInResult,
  type SsoProfile,
} from "./protocol.ts";

export const completeSignIn: CompleteSignIn = async (db, pending, provider, outcome, request) => {
  const purpose = pending?.purpose ?? "console";
  let profile: SsoProfile;
  let directory: DirectoryStanding | null = null;
  try {
    if (!outcome.ok) throw outcome.error;
    profile = outcome.profile;
    if (purpose !== "test") {
      assertMaySignIn(provider, pending, profile);
      directory = await directoryStandingOf(db.sql, provider.tenantId, profile.email);
      assertNotDeprovisioned(directory, profile);
    }
    if (purpose === "console") await assertMayJoin(db, provider, profile, directory);
  } catch (error) {
    const refusal = error instanceof SsoRefused ? error : new SsoRefused("invalid_response", "the sign-in could not be completed");
    const email = outcome.ok ? outcome.profile.email : null;
    await recordRefusal(db, request, refusal, { tenantId: provider.tenantId, providerId: provider.id, purpose, email });
    if (purpose === "test" && pending) {
      await storeTestResult(db, pending.id, { ok: false, reason: refusal.reason, detail: refusal.detail });
      return { location: testResultPath(pending), session: null };
    }
    if (purpose === "broker" && pending?.broker) {
      const { redirectUri, clientState } = pending.broker;
      return { location: errorLocation(redirectUri, "access_denied", `${refusal.reason}: ${refusal.detail}`, clientState), session: null };
    }
    return { location: loginErrorPath(refusal.reason), session: null };
  }

  if (purpose === "test" && pending) {
    const domain = domainOf(profile.email);
    await storeTestResult(db, pending.id, { ok: true, profile, domain_matches: domain !== null && provider.domains.includes(domain) });
    return { location: testResultPath(pending), session: null };
  }
  if (purpose === "broker") {
    // The OAuth broker: no user, no session; a one-time code for the application (server/sso/broker/).
    if (!pending?.broker) return { location: loginErrorPath("invalid_response"), session: null };
    const code = await issueCode(db, { ...pending, broker: pending.broker }, provider, profile, request, activeIn(directory));
    return { location: code, session: null };
  }
  const session = await db.prisma.$transaction(async (tx) => {
    const userId = await signInMember(tx, provider, profile, request, activeIn(directory));
    const start = { userId, ssoTenantId: provider.tenantId, providerId: provider.id, request };
    return { userId, sessionId: await startSession(sqlIn(tx), start) };
  });
  return {
    location: pending?.returnTo ?? `/tenants/${provider.tenantId}`,
    session: { ...session, ssoTenantId: provider.tenantId, providerId: provider.id, subject: profile.id },
  } satisfies SignInResult;
};

/** A console sign-in needs an enabled provider, and an email in one of its domains. */
function assertMaySignIn(provider: SignInProvider, pending: PendingSignIn | null, profile: SsoProfile) {
  if (!provider.enabled) throw new SsoRefused("disabled", "this SSO provider is disabled");
  if (pending && pending.providerId !== provider.id) throw new SsoRefused("unknown_provider", "the response came back to another provider");
  const domain = domainOf(profile.email);
  if (!domain || !provider.domains.includes(domain)) {
    throw new SsoRefused(
      "domain_mismatch",
      `the identity provider vouched for an address outside this provider's domains (${domain ?? "none"})`,
    );
  }
  // The IdP vouches only for addresses of domains its tenant proved it owns (issue 22).
  if (!provider.domainAccess.get(domain)?.routes) {
    throw new SsoRefused("domain_not_verified", `${domain} is not a verified domain of this tenant`);
  }
}

/** An inactive directory user of the tenant signs in nowhere in it, console or broker (issue 23). */
function assertNotDeprovisioned(directory: DirectoryStanding | null, profile: SsoProfile) {
  if (directory?.state === "deprovisioned") {
    throw new SsoRefused("deprovisioned", `${profile.email} was deprovisioned by the tenant's directory`);
  }
}

const activeIn = (directory: DirectoryStanding | null) => (directory?.state === "active" ? directory : null);

/**
 * A member signs in. Anyone else joins by signing in only through a verified domain of the tenant
 * (a tenant owns the people in its verified domains; one that routes while pending owns no one),
 * and only when the tenant's directory gives them a role or, for someone no directory holds, the
 * domain has auto-join on. A directory user the directory gives no role may not join by signing in,
 * whatever auto-join says: their membership is the directory's to give.
 */
async function assertMayJoin(db: Database, provider: SignInProvider, profile: SsoProfile, directory: DirectoryStanding | null) {
  const [member] = await db.sql.query(
    `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1::uuid AND u.email = $2`,
    [provider.tenantId, profile.email],
  );
  if (member) return;
  const domain = domainOf(profile.email);
  const access = domain ? provider.domainAccess.get(domain) : undefined;
  if (!access?.verified) {
    throw new SsoRefused(
      "domain_not_verified",
      `${profile.email} is not a member of this tenant, and only a verified domain lets new people join by signing in (${domain ?? "none"} is not verified)`,
    );
  }
  const fromDirectory = activeIn(directory);
  if (fromDirectory?.role) return;
  if (fromDirectory) {
    throw new SsoRefused("not_a_member", `the tenant's directory gives ${profile.email} no console role`);
  }
  if (access.autoJoin) return;
  throw new SsoRefused(
    "not_a_member",
    `${profile.email} is not a member of this tenant, and ${domain ?? "its domain"} does not let new people join by signing in (auto-join)`,
  );
}

/**
 * The user for the profile's email, created on first sign-in, and a membership in the provider's
 * tenant with `role` (the directory's for a directory user, which that directory then governs, else
 * the provider's default role) when there is none (an existing member keeps their role).
 */
async function signInMember(
  tx: Tx,
  provider: SignInProvider,
  profile: SsoProfile,
  request: RequestInfo,
  directory: { role: TenantRole | null; directoryId: string } | null,
): Promise<string> {
  const role = directory?.role ?? provider.defaultRole;
  const directoryId = directory?.role ? directory.directoryId : null;
  const name = [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null;
  // Two first sign-ins at once: one creates, the other finds it.
  await tx.$executeRaw`INSERT INTO users (email, name) VALUES (${profile.email}, ${name}) ON CONFLICT (email) DO NOTHING`;
  const user = await tx.user.findUniqueOrThrow({ where: { email: profile.email } });
  const actor: EventActor = { id: user.id, email: user.email, ip: request.ip, userAgent: request.userAgent };
  const joined = await tx.$queryRaw<{ role: TenantRole }[]>`
    INSERT INTO memberships (tenant_id, user_id, role, directory_id)
    VALUES (${provider.tenantId}::uuid, ${user.id}::uuid, ${role}, ${directoryId}::uuid)
    ON CONFLICT (tenant_id, user_id) DO NOTHING RETURNING role`;
  const target = { type: "user", id: user.id, name: user.email };
  if (joined.length) {
    await emitEvent(sqlIn(tx), actor, {
      type: "user.created",
      tenantId: provider.tenantId,
      target,
      details: { email: user.email, role, method: "sso", provider_id: provider.id },
    });
  }
  await emitEvent(sqlIn(tx), actor, {
    type: "user.login",
    tenantId: provider.tenantId,
    target,
    details: { method: "sso", provider_id: provider.id, provider_type: provider.providerType, protocol: provider.protocol },
  });
  return user.id;
}
