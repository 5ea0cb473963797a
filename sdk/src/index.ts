/** @control-plane/sdk: the typed client of the Control Plane API, and the helpers its clients need. */
export { ControlPlane, SDK_VERSION, type ControlPlaneOptions } from "./client.js";
export { ControlPlaneError, ControlPlaneTimeoutError, type FieldError } from "./errors.js";
export { Pages, type Page } from "./pagination.js";
export { Transport, backoffMs, rateLimitOf, retryAfterMs, DEFAULT_TIMEOUT_MS, type RetryOptions, type SendOptions } from "./transport.js";
export type { Body, Http, Query, ReadOptions, Schema, WriteOptions, components, operations, paths } from "./types.js";
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookInput, type WebhookEvent } from "./webhook-verify.js";
export {
  authorizationUrl,
  callbackCode,
  exchangeCode,
  profile,
  OAuthError,
  type AuthorizationRequest,
  type AuthorizationUrlInput,
  type BrokerProfile,
  type BrokerToken,
  type ExchangeCodeInput,
} from "./broker.js";
export {
  verifyAuditExport,
  AuditChainFailure,
  AuditInputError,
  parseDigests,
  type AuditExportProof,
  type AuditExportVerification,
  type VerifyAuditExportInput,
} from "./audit-verify.js";
