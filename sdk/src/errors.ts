/**
 * One error for every failed call: the API's problem+json answer (RFC 9457) as fields, or a network
 * failure that outlasted the retries (status 0, code `network_error`), or no answer in time
 * (ControlPlaneTimeoutError, status 0, code `timeout`).
 */

/** One invalid field of a 400: `path` as the API names it (`body.name`, `Idempotency-Key`). */
export interface FieldError {
  path: string;
  message: string;
}

export class ControlPlaneError extends Error {
  override readonly name: string = "ControlPlaneError";
  /** The HTTP status; 0 when no answer came (network error). */
  readonly status: number;
  /** The problem's stable code (`not_found`, `invalid_request`, `rate_limited`…), meant for programs. */
  readonly code: string;
  /** The problem's explanation, meant for people. */
  readonly detail: string;
  /** The invalid fields of a 400 (empty otherwise). */
  readonly fields: FieldError[];
  /** The X-Request-Id of the answer: quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The answer's headers (Retry-After, WWW-Authenticate…), when there was an answer. */
  readonly headers: Headers | null;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    fields?: FieldError[];
    requestId?: string | null;
    headers?: Headers | null;
    cause?: unknown;
  }) {
    super(`${init.status ? `${init.status} ` : ""}${init.code}: ${init.detail}`, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.fields = init.fields ?? [];
    this.requestId = init.requestId ?? null;
    this.headers = init.headers ?? null;
  }
}

/** No answer within the timeout, on every attempt the retries allowed. */
export class ControlPlaneTimeoutError extends ControlPlaneError {
  override readonly name: string = "ControlPlaneTimeoutError";
  /** The timeout each attempt had, in ms. */
  readonly timeoutMs: number;
  /** How many attempts were made. */
  readonly attempts: number;

  constructor(init: { timeoutMs: number; attempts: number }) {
    super({
      status: 0,
      code: "timeout",
      detail: `no answer within ${init.timeoutMs} ms${init.attempts > 1 ? ` on each of ${init.attempts} attempts` : ""}`,
    });
    this.timeoutMs = init.timeoutMs;
    this.attempts = init.attempts;
  }
}

interface ProblemBody {
  code?: unknown;
  detail?: unknown;
  title?: unknown;
  errors?: unknown;
  request_id?: unknown;
}

const isFieldError = (value: unknown): value is FieldError =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as FieldError).path === "string" &&
  typeof (value as FieldError).message === "string";

/** The error for a non-2xx answer; `body` is what openapi-fetch parsed (a problem, or text from something in between). */
export function errorFromResponse(response: Response, body: unknown): ControlPlaneError {
  const problem: ProblemBody = typeof body === "object" && body !== null ? (body as ProblemBody) : {};
  const text = typeof body === "string" ? body.slice(0, 200) : "";
  return new ControlPlaneError({
    status: response.status,
    code: typeof problem.code === "string" ? problem.code : `http_${response.status}`,
    detail: typeof problem.detail === "string" ? problem.detail : text || response.statusText || `HTTP ${response.status}`,
    fields: Array.isArray(problem.errors) ? problem.errors.filter(isFieldError) : [],
    requestId: response.headers.get("x-request-id") ?? (typeof problem.request_id === "string" ? problem.request_id : null),
    headers: response.headers,
  });
}

/** Reads a failed answer's body (problem+json, or whatever came) into its error. */
export async function errorFromFailedResponse(response: Response): Promise<ControlPlaneError> {
  const text = await response.text().catch(() => "");
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the detail
  }
  return errorFromResponse(response, body);
}
