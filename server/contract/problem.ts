/**
 * RFC 9457 problem+json responses, the only error shape the REST API answers with. A route that
 * catches an error hands it to `errorResponse`, which picks the problem and logs what nobody meant.
 */
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, DatabaseUnavailable, STATUS_OF, fieldErrorsOf, type ErrorCode, type FieldError } from "../errors.ts";
import { errorFields, log } from "../log.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";

export const PROBLEM_TITLES: Record<ErrorCode, string> = {
  invalid_request: "Invalid request",
  tenant_required: "Tenant required",
  unauthenticated: "Authentication required",
  step_up_required: "Step-up authentication required",
  mfa_required: "Second factor required",
  mfa_enrollment_required: "Second factor enrolment required",
  forbidden: "Forbidden",
  not_found: "Not found",
  gone: "Gone",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  idempotency_key_in_use: "Idempotency key in use",
  idempotency_key_mismatch: "Idempotency key reused with another request",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  rate_limited: "Too many requests",
  internal: "Internal server error",
  unavailable: "Service unavailable",
};

export interface Problem {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** RFC 9457 extension members, beside the standard ones (a 410's `oldest_cursor`). */
  extensions?: Record<string, unknown>;
}

export function problemResponse(problem: Problem, requestId: string, origin: string): Response {
  const status = STATUS_OF[problem.code];
  const body = {
    ...problem.extensions,
    type: `${origin}/docs/errors#${problem.code}`,
    title: PROBLEM_TITLES[problem.code],
    status,
    detail: problem.detail,
    code: problem.code,
    errors: problem.errors ?? [],
    request_id: requestId,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...problem.headers, "Content-Type": "application/problem+json", "X-Request-Id": requestId },
  });
}

export function problemFromAppError(error: AppError): Problem {
  return {
    code: error.code,
    detail: error.message,
    errors: error.options.errors,
    headers: error.options.headers,
    extensions: error.options.extensions,
  };
}

/** An opaque 500: whatever went wrong is in the log, under the request id the client quotes. */
const UNEXPECTED: Problem & { internal: true } = {
  code: "internal",
  detail: "An unexpected error occurred; quote the request id when reporting it",
  internal: true,
};

/** The database is unreachable: 503 with Retry-After, which clients retry, rather than an opaque 500. */
const UNAVAILABLE: Problem & { unavailable: true } = { ...problemFromAppError(DatabaseUnavailable()), unavailable: true };

/** A REST operation: the method and its path under /api/v1. */
export interface Operation {
  method: string;
  path: string;
}

/**
 * The problem for an error the tRPC layer reported. Domain errors keep their code; input
 * validation names each field; anything unexpected is an opaque 500 (`internal: true`, to log).
 */
function problemFromTRPCError(error: TRPCError, operation: Operation | undefined, input: unknown): ProblemOf {
  const cause = error.cause;
  if (cause instanceof AppError) return problemFromAppError(cause);
  if (isDatabaseUnavailable(cause)) return UNAVAILABLE;
  if (cause instanceof ZodError && error.code === "BAD_REQUEST") {
    const errors = fieldErrorsOf(cause, input);
    return { code: "invalid_request", detail: errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors };
  }
  switch (error.code) {
    case "PARSE_ERROR":
      return { code: "invalid_request", detail: "The request body is not valid JSON", errors: [{ path: "body", message: "invalid JSON" }] };
    case "NOT_FOUND":
      return { code: "not_found", detail: operation ? `No operation ${operation.method} ${operation.path}` : "No such operation" };
    case "UNSUPPORTED_MEDIA_TYPE":
      return { code: "unsupported_media_type", detail: "Send the body as JSON with Content-Type: application/json" };
    case "PAYLOAD_TOO_LARGE":
      return { code: "payload_too_large", detail: "The request body exceeds 1 MiB" };
    default:
      return UNEXPECTED;
  }
}

/** A problem, and whether to log it: `internal` (a fault nobody meant) or `unavailable` (the database is down). */
type ProblemOf = Problem & { internal?: boolean; unavailable?: boolean };

/** The problem for anything thrown: a domain or tRPC error says its own; anything else is `internal`. */
export function problemOf(error: unknown, operation?: Operation, input?: unknown): ProblemOf {
  if (error instanceof AppError) return problemFromAppError(error);
  if (error instanceof TRPCError) return problemFromTRPCError(error, operation, input);
  return isDatabaseUnavailable(error) ? UNAVAILABLE : UNEXPECTED;
}

/** Where an error was caught: the request, and how to log it if nobody meant it. */
export interface ErrorScene {
  requestId: string;
  /** The public origin the problem's `type` link points at. */
  origin: string;
  /** The log message of an unexpected error ("operation failed"), and fields beside the request id. */
  log: string;
  fields?: Record<string, unknown>;
  /** The REST operation asked for: a 404 from the tRPC adapter names it. */
  operation?: Operation;
  /** What the operation was called with: tells a field sent with the wrong type from a missing one. */
  input?: unknown;
}

/**
 * Any caught error as its problem+json response. An unexpected one (no domain error behind it) is
 * logged with the request id and its cause, since the client sees only the opaque 500.
 */
export function errorResponse(error: unknown, scene: ErrorScene): Response {
  const problem = problemOf(error, scene.operation, scene.input);
  if (problem.internal || problem.unavailable) {
    const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
    const write = problem.internal ? log.error : log.warn;
    write(problem.internal ? scene.log : "database unavailable", { request_id: scene.requestId, ...scene.fields, ...errorFields(cause) });
  }
  return problemResponse(problem, scene.requestId, scene.origin);
}
