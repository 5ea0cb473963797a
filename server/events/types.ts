/** Every event kind the control plane emits: audit entries and (later) webhook deliveries. */
export const EVENT_TYPES = [
  "tenant.created",
  "user.created",
  "user.updated",
  "user.removed",
  "user.login",
  "user.login_failed",
  "user.step_up",
  "user.mfa_enrolled",
  "user.mfa_removed",
  "user.mfa_challenge_failed",
  "user.recovery_code_used",
  "user.password_reset",
  "user.sessions_ended",
  "invitation.created",
  "invitation.resent",
  "invitation.revoked",
  "invitation.accepted",
  "sso_provider.created",
  "sso_provider.updated",
  "sso_provider.enabled",
  "sso_provider.disabled",
  "sso_provider.deleted",
  "sso_provider.certificate_expiring",
  "sso.login_failed",
  "sso.broker_login",
  "sso.application_created",
  "sso.application_updated",
  "sso.application_deleted",
  "sso.application_secret_rotated",
  "webhook.created",
  "webhook.updated",
  "webhook.enabled",
  "webhook.disabled",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.delivery_exhausted",
  "webhook.failing",
  "webhook.auto_disabled",
  "log_stream.created",
  "log_stream.updated",
  "log_stream.enabled",
  "log_stream.disabled",
  "log_stream.deleted",
  "log_stream.failing",
  "log_stream.recovered",
  "domain.created",
  "domain.verified",
  "domain.updated",
  "domain.verification_failed",
  "domain.deleted",
  "setup_link.created",
  "setup_link.opened",
  "setup_link.revoked",
  "directory.created",
  "directory.updated",
  "directory.enabled",
  "directory.disabled",
  "directory.deleted",
  "directory.token_rotated",
  "directory_user.created",
  "directory_user.updated",
  "directory_user.deactivated",
  "directory_user.reactivated",
  "directory_user.deleted",
  "directory_user.deprovision_refused",
  "directory_group.created",
  "directory_group.updated",
  "directory_group.deleted",
  "directory_group.user_added",
  "directory_group.user_removed",
  "api_token.created",
  "api_token.revoked",
  "audit.exported",
  "audit.searched",
  "audit.retention_purged",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Kinds about the platform itself, never emitted in a tenant (the OAuth broker's applications). */
const PLATFORM_ONLY_EVENT_TYPES: ReadonlySet<EventType> = new Set([
  "sso.application_created",
  "sso.application_updated",
  "sso.application_deleted",
  "sso.application_secret_rotated",
  "audit.searched",
]);

/** The control plane's kinds that fire in a tenant: what its webhooks may subscribe to, beside its own. */
export const TENANT_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter((kind) => !PLATFORM_ONLY_EVENT_TYPES.has(kind));

/** A kind a tenant's application may append: at least two dot-separated lowercase words. */
export const APPEND_KIND = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * The control plane's own namespaces: the first word of each of its event kinds, and those of the
 * wings that will emit next. An application appends under its own (`app.`, `invoice.`…); a look-alike
 * such as `user.deleted` or `tenant.deleted` would read, and be delivered to webhooks signed by the
 * platform, as if the platform had done it.
 */
export const RESERVED_NAMESPACES: ReadonlySet<string> = new Set([
  ...EVENT_TYPES.map((kind) => kind.split(".")[0]!),
  "directory",
  "dsync",
  "domain",
  "setup_link",
  "log_stream",
  "event",
  "member",
  "platform",
  "control_plane",
]);

/** Whether `kind` is in an application's own namespace (not one of the control plane's). */
export const isAppendedNamespace = (kind: string) => !RESERVED_NAMESPACES.has(kind.split(".")[0]!);

/** A row of `audit_events` as read or just written, chain fields included. */
export interface AuditEventRow {
  id: string;
  tenant_id: string | null;
  event_type: string;
  actor_id: string | null;
  actor_email: string | null;
  timestamp: Date;
  ip_address: string | null;
  user_agent: string | null;
  target_type: string | null;
  target_id: string | null;
  /** The target's name when the event was written (null for older events and unnamed targets). */
  target_name: string | null;
  details: Record<string, unknown>;
  /** Read and returned as ::int (the INSERT's RETURNING already bounds a chain to int4). */
  sequence: number;
  prev_hash: string;
  hash: string;
  /** The hash's canonical form: 1 before sources were recorded (no source), 2 since. */
  chain_version: number;
  /** Who wrote it (null on version 1 rows): the platform, or an application through the API. */
  source_type: EventSourceType | null;
  /** For `api`: the API token that appended it (null from a console session). */
  source_token_id: string | null;
  /** For `api`: the user of that token or session. */
  source_user_id: string | null;
}

export const EVENT_SOURCE_TYPES = ["platform", "api"] as const;
export type EventSourceType = (typeof EVENT_SOURCE_TYPES)[number];

/**
 * Who wrote an event, as the API, the exports and webhook payloads show it: `platform` (the control
 * plane's own event) or `api` (appended by a tenant's application) with the token and user that
 * appended it. Covered by the event's hash.
 */
export interface EventSource {
  type: EventSourceType;
  token_id: string | null;
  user_id: string | null;
}

/** An event row's source; null for a row written before sources were recorded (chain version 1). */
export function sourceOf(row: Pick<AuditEventRow, "source_type" | "source_token_id" | "source_user_id">): EventSource | null {
  if (row.source_type === null) return null;
  return { type: row.source_type, token_id: row.source_token_id, user_id: row.source_user_id };
}
