/** Every event kind the control plane emits: audit entries and (later) webhook deliveries. */
export const EVENT_TYPES = [
  "tenant.created",
  "user.created",
  "user.updated",
  "user.removed",
  "user.login",
  "user.login_failed",
  "user.step_up",
  "sso_provider.created",
  "sso_provider.updated",
  "sso_provider.enabled",
  "sso_provider.disabled",
  "sso_provider.deleted",
  "webhook.created",
  "webhook.updated",
  "webhook.enabled",
  "webhook.disabled",
  "webhook.deleted",
  "webhook.secret_rotated",
  "api_token.created",
  "api_token.revoked",
  "audit.exported",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
