import type { Metadata } from "next";
import { PROBLEM_TITLES } from "@/server/contract/problem";
import { STATUS_OF, type ErrorCode } from "@/server/errors";
import { DocsHeader } from "@/components/docs-header";

export const metadata: Metadata = {
  title: "Error codes",
  description: "Every problem code the Control Plane API answers with, its HTTP status and what to do about it.",
};

/** What each code means for a caller, and what to do next. A new code must be described here. */
const MEANING: Record<ErrorCode, string> = {
  invalid_request:
    "The request is malformed: a field is missing, has the wrong type or is out of range, a cursor or date cannot be read, or the body is not valid JSON. `errors` names each invalid field with its path.",
  tenant_required:
    "The operation applies to one tenant and the API cannot tell which: the token has no tenant scope and its owner belongs to several tenants (or none). Use a tenant-scoped token or the /tenants/{tenant_id}/… form of the path.",
  unauthenticated:
    "No bearer token was sent, or it is invalid, expired or revoked. The response carries `WWW-Authenticate: Bearer`. Send `Authorization: Bearer <token>` with a valid token.",
  step_up_required:
    "The action is sensitive (such as disabling an SSO provider) and needs a recent re-authentication. Call POST /api/v1/auth/step-up with the token owner's password, then retry within 10 minutes.",
  mfa_required:
    "The password was right, but the account has an authenticator app: a step-up needs its current 6-digit code too. Call POST /api/v1/auth/step-up again with `{password, totp_code}`, or with `{recovery_code}` when the app is lost.",
  mfa_enrollment_required:
    "The platform requires operators and support staff to have a second factor (PLATFORM_REQUIRE_MFA), and this console account has none yet. Add an authenticator app on the profile page; API tokens are not affected.",
  forbidden:
    "The caller is known, but its role or the token's scope does not allow this action: for example a read-only token attempting a write, or a tenant viewer changing configuration.",
  not_found: "There is no such resource, or it belongs to a tenant the caller cannot see. The API does not reveal which.",
  gone: "What the request asks for is no longer kept: an Events API cursor older than the retention window. `oldest_cursor` in the body is where reading can go on from (events between were not kept).",
  method_not_allowed:
    "The path exists, but not with this method (a PUT where the API takes PATCH, say). The `Allow` header lists the methods it takes.",
  conflict: "The request conflicts with the current state of the resource, for example a value that must be unique.",
  idempotency_key_in_use:
    "Another request with the same Idempotency-Key is still running. Wait a moment and retry; once it has finished its response is replayed.",
  idempotency_key_mismatch: "The Idempotency-Key was already used for a different method, path or body. Use a new key for a new request.",
  payload_too_large: "The request body is larger than 1 MiB.",
  unsupported_media_type: "The body was not sent as JSON. Send it with `Content-Type: application/json`.",
  rate_limited: "Too many requests in a short time. Wait for the number of seconds in `Retry-After`, then retry.",
  internal: "Something failed on our side. Retrying may help; if it persists, quote the `request_id` of the response when reporting it.",
  unavailable:
    "The service cannot reach its database for now (a restart, a failover). Wait for the number of seconds in `Retry-After`, then retry (a write with the same `Idempotency-Key`).",
};

const CODES = (Object.keys(STATUS_OF) as ErrorCode[]).sort((a, b) => STATUS_OF[a] - STATUS_OF[b] || a.localeCompare(b));

const EXAMPLE = `HTTP/1.1 400 Bad Request
Content-Type: application/problem+json

{
  "type": "https://control-plane.example.com/docs/errors#invalid_request",
  "title": "Invalid request",
  "status": 400,
  "detail": "name: must not be empty",
  "code": "invalid_request",
  "errors": [{ "path": "name", "message": "must not be empty" }],
  "request_id": "2f1c9b0e-6d1a-4c1e-9a57-0f3b1c2d4e5f"
}`;

/** Renders `code spans` written with backticks in the meanings. */
function Prose({ text }: { text: string }) {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith("`") ? (
      <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}

function statusTone(status: number) {
  return status >= 500 ? "bg-red-50 text-red-700 ring-red-200" : "bg-amber-50 text-amber-800 ring-amber-200";
}

export default function ErrorCodesPage() {
  return (
    <div className="min-h-screen bg-white">
      <DocsHeader current="/docs/errors" />

      <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Error codes</h1>
        <p className="mt-3 max-w-2xl text-base text-slate-600">
          Every error from the REST API is an{" "}
          <a href="https://www.rfc-editor.org/rfc/rfc9457" className="font-medium text-indigo-700 hover:underline">
            RFC 9457
          </a>{" "}
          problem document. Programs should branch on <Prose text="`code`" />, which never changes; <Prose text="`detail`" /> is for people
          and may be reworded. Every response carries <Prose text="`X-Request-Id`" />.
        </p>

        <figure className="mt-6">
          <figcaption className="mb-2 text-sm font-medium text-slate-700">Example</figcaption>
          <pre className="overflow-x-auto rounded-lg bg-code p-4 text-xs leading-relaxed text-code-fg">
            <code>{EXAMPLE}</code>
          </pre>
        </figure>

        <h2 className="mt-10 text-lg font-semibold text-slate-900">Codes</h2>
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
          {CODES.map((code) => (
            <li
              key={code}
              id={code}
              className="scroll-mt-6 px-4 py-5 target:bg-indigo-50 target:ring-2 target:ring-indigo-600 target:ring-inset sm:px-6"
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
                <h3 className="font-mono text-sm font-semibold text-slate-900">
                  <a href={`#${code}`} className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
                    {code}
                  </a>
                </h3>
                <span className={`rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${statusTone(STATUS_OF[code])}`}>
                  {STATUS_OF[code]}
                </span>
                <span className="text-sm text-slate-700">{PROBLEM_TITLES[code]}</span>
              </div>
              <p className="mt-2 text-sm leading-6 text-slate-600">
                <Prose text={MEANING[code]} />
              </p>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
