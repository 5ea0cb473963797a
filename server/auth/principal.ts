/** Who is calling: a user, through an API token or a console session (or the CLI, as system). */

export type PlatformRole = "operator" | "support";
export type TenantRole = "admin" | "viewer";

export const TENANT_ROLES = ["admin", "viewer"] as const satisfies readonly TenantRole[];
export const PLATFORM_ROLES = ["operator", "support"] as const satisfies readonly PlatformRole[];

export interface Principal {
  userId: string;
  email: string;
  platformRole: PlatformRole | null;
  via: "token" | "session" | "system";
  /** The API token used, when via = "token". */
  token: { id: string; tenantId: string | null; readOnly: boolean; expiresAt: Date | null } | null;
  /** The console session, when via = "session". */
  sessionId: string | null;
  /**
   * Set when the session (or the token minted in it) was obtained through this tenant's SSO
   * provider: the principal reaches this tenant only, and holds no platform role (policy.ts).
   */
  ssoTenantId?: string | null;
  /** The SSO provider a console session was signed in through (it steps up there too). */
  ssoProviderId?: string | null;
  /**
   * Set when the caller is a customer's IT admin working through a setup link: no account
   * (`userId` is the link's id), one tenant, one guided flow. Only the setup procedures accept it
   * (server/trpc/procedures.ts); every other procedure answers 403.
   */
  setupLink?: SetupLinkGrant | null;
  /**
   * PLATFORM_REQUIRE_MFA: a console session of platform staff whose account has no second factor
   * yet. It may manage its own account (to enrol) and nothing else.
   */
  mfaEnrolmentRequired?: boolean;
}

export const SETUP_INTENTS = ["sso", "directory_sync", "domain_verification"] as const;
export type SetupIntent = (typeof SETUP_INTENTS)[number];

/** What a setup link lets its holder do, and who made it (named on everything done through it). */
export interface SetupLinkGrant {
  id: string;
  tenantId: string;
  intent: SetupIntent;
  /** The setup session (browser) it was opened in, and when that session ends. */
  sessionId: string;
  sessionExpiresAt: Date;
  createdBy: { id: string | null; email: string | null };
}

/** Where a request came from, recorded on audit events. */
export interface RequestInfo {
  requestId: string;
  ip: string | null;
  userAgent: string | null;
}

/** The CLI and start-up scripts act as the platform itself. */
export const SYSTEM_PRINCIPAL: Principal = {
  userId: "system",
  email: "system@control-plane.local",
  platformRole: "operator",
  via: "system",
  token: null,
  sessionId: null,
};

export const SYSTEM_REQUEST: RequestInfo = { requestId: "cli", ip: null, userAgent: "control-plane-cli" };

export function asPlatformRole(value: string | null): PlatformRole | null {
  return value === "operator" || value === "support" ? value : null;
}

export function asTenantRole(value: string | null): TenantRole | null {
  return value === "admin" || value === "viewer" ? value : null;
}

/** What a step-up is attached to: the token, or the console session. */
export function stepUpSubject(principal: Principal): string | null {
  if (principal.token) return `token:${principal.token.id}`;
  if (principal.sessionId) return `session:${principal.sessionId}`;
  return null;
}
