/**
 * Domain errors, defined once. Services throw these; they know nothing of HTTP or tRPC.
 * server/trpc/errors.ts maps them to tRPC codes, server/contract/problem.ts to problem+json.
 */
import type { ZodError } from "zod";

export type ErrorCode =
  | "invalid_request"
  | "tenant_required"
  | "unauthenticated"
  | "step_up_required"
  | "mfa_required"
  | "mfa_enrollment_required"
  | "forbidden"
  | "not_found"
  | "gone"
  | "method_not_allowed"
  | "conflict"
  | "idempotency_key_in_use"
  | "idempotency_key_mismatch"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "internal"
  | "unavailable";

export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  tenant_required: 400,
  unauthenticated: 401,
  step_up_required: 401,
  mfa_required: 401,
  mfa_enrollment_required: 403,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_mismatch: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = "AppError";
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.status = STATUS_OF[code];
  }
}

export const InvalidRequest = (message: string, errors?: FieldError[]) => new AppError("invalid_request", message, { errors });

/** One invalid field: the message names it, and `errors` carries its path. */
export const InvalidField = (path: string, message: string) =>
  new AppError("invalid_request", `${path}: ${message}`, { errors: [{ path, message }] });

export const NotFound = (what = "Resource") => new AppError("not_found", `${what} not found`);

/** The path exists, but not with this method: 405 with `Allow` listing those it has. */
export const MethodNotAllowed = (method: string, allow: string[]) =>
  new AppError("method_not_allowed", `${method} is not allowed here; this path takes ${allow.join(", ")}`, {
    headers: { Allow: allow.join(", ") },
  });

export const Forbidden = (message = "Your role does not allow this action") => new AppError("forbidden", message);

export const Conflict = (message: string) => new AppError("conflict", message);

export const Unauthenticated = (message = "Authentication required", error?: "invalid_token") =>
  new AppError("unauthenticated", message, {
    headers: {
      "WWW-Authenticate": error ? `Bearer error="${error}", error_description="${message}"` : "Bearer",
    },
  });

/** RFC 9470: the caller must re-authenticate (step-up) before this action. */
export const StepUpRequired = (message = "This action needs a fresh step-up authentication (POST /api/v1/auth/step-up)") =>
  new AppError("step_up_required", message, {
    headers: { "WWW-Authenticate": 'Bearer error="insufficient_user_authentication", max_age=600' },
  });

export const RateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError("rate_limited", message, { headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

/** The database cannot be reached right now: 503, retry after a few seconds. */
export const DatabaseUnavailable = () =>
  new AppError("unavailable", "The service cannot reach its database right now; retry after the number of seconds in Retry-After", {
    headers: { "Retry-After": "5" },
  });

export const TenantRequired = (message: string) => new AppError("tenant_required", message);

/**
 * A zod validation failure as the field errors every surface answers with (`body` for the root).
 * `input`, the value that was validated, tells a wrong type from a missing field (zod reports both
 * as one `invalid_type` issue, whose schema message is often about the missing case: "is required").
 */
export function fieldErrorsOf(error: ZodError, input?: unknown): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "body",
    message: issue.code === "invalid_type" ? typeMessage(issue.message, issue.expected, valueAt(input, issue.path)) : issue.message,
  }));
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  boolean: "true or false",
  array: "an array",
  tuple: "an array",
  object: "an object",
  record: "an object",
  map: "an object",
  null: "null",
};

/** For a value that was sent but has the wrong type: what it must be, unless the schema's message already says. */
function typeMessage(message: string, expected: string, sent: unknown): string {
  if (sent === undefined) return message;
  if (/\bmust\b/.test(message) && !message.startsWith("is required")) return message;
  return `must be ${TYPE_NAMES[expected] ?? `of type ${expected}`}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
