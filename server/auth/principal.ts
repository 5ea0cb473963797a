/** Who is calling: a user, through an API token or a console session. */

export type PlatformRole = "operator" | "support";
export type TenantRole = "admin" | "viewer";

export interface Principal {
  userId: string;
  email: string;
  platformRole: PlatformRole | null;
  via: "token" | "session";
  /** The API token used, when via = "token". */
  token: { id: string; tenantId: string | null; readOnly: boolean } | null;
}

/** Where a request came from, recorded on audit events. */
export interface RequestInfo {
  requestId: string;
  ip: string | null;
  userAgent: string | null;
}

export function asPlatformRole(value: string | null): PlatformRole | null {
  return value === "operator" || value === "support" ? value : null;
}
