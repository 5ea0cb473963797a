/** Maps domain errors to tRPC errors (the HTTP side maps them in server/contract/problem.ts). */
import { TRPCError } from "@trpc/server";
import type { AppError, ErrorCode } from "../errors.ts";

type TRPCCode = TRPCError["code"];

const TRPC_CODE_OF: Record<ErrorCode, TRPCCode> = {
  invalid_request: "BAD_REQUEST",
  tenant_required: "BAD_REQUEST",
  unauthenticated: "UNAUTHORIZED",
  step_up_required: "UNAUTHORIZED",
  mfa_required: "UNAUTHORIZED",
  mfa_enrollment_required: "FORBIDDEN",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  gone: "PRECONDITION_FAILED",
  method_not_allowed: "METHOD_NOT_SUPPORTED",
  conflict: "CONFLICT",
  idempotency_key_in_use: "CONFLICT",
  payload_too_large: "PAYLOAD_TOO_LARGE",
  unsupported_media_type: "UNSUPPORTED_MEDIA_TYPE",
  idempotency_key_mismatch: "UNPROCESSABLE_CONTENT",
  rate_limited: "TOO_MANY_REQUESTS",
  internal: "INTERNAL_SERVER_ERROR",
  unavailable: "SERVICE_UNAVAILABLE",
};

export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_OF[error.code], message: error.message, cause: error });
}
