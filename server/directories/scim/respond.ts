/**
 * The SCIM endpoint's plain request and answer (no web Request here: server/http/scim.ts adapts
 * one), and the pieces every handler answers with: `application/scim+json`, ListResponse, meta.
 */
import type { RequestInfo } from "../../auth/principal.ts";
import { findBadText, textProblem } from "../../contract/fields.ts";
import { ScimError } from "./errors.ts";

// The caps live in limits.ts; the handlers that page read these two from here.
export { DEFAULT_COUNT, MAX_RESULTS } from "./limits.ts";
export const SCIM_CONTENT_TYPE = "application/scim+json; charset=utf-8";
export const LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

export interface ScimRequest {
  /** Upper case. */
  method: string;
  /** The path under /api/scim/v2 (`/{directory_id}/Users/…`), still percent-encoded. */
  path: string;
  query: URLSearchParams;
  /** The public origin (scheme and host the client used): locations are absolute from it. */
  origin: string;
  /** Null without the header, "" when it is not a bearer credential. */
  bearer: string | null;
  contentType: string | null;
  ifMatch: string | null;
  /** The body as text ("" without one); null when it was larger than MAX_SCIM_BODY_BYTES. */
  body: string | null;
  info: RequestInfo;
}

export interface ScimResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value, or null for no body (204). */
  body: unknown;
}

/** What a handler found out for the request log's one-line summary (besides method, path, status). */
export interface Outcome {
  response: ScimResponse;
  /** e.g. `alice@example.com`, `filter=userName eq "x" → 1 result`. */
  note?: string;
}

export function scimResponse(status: number, body: unknown, headers: Record<string, string> = {}): ScimResponse {
  return { status, headers: body === null ? headers : { "Content-Type": SCIM_CONTENT_TYPE, ...headers }, body };
}

/** A single resource's answer: its ETag is meta.version. */
export function resourceResponse(status: number, resource: { meta: { version: string; location: string } }, created = false): ScimResponse {
  const headers: Record<string, string> = { ETag: resource.meta.version };
  if (created) headers.Location = resource.meta.location;
  return scimResponse(status, resource, headers);
}

/**
 * A PATCH's answer (RFC 7644 §3.5.2: 200 with the resource, or 204). Okta documents 200 with the
 * user; Microsoft's reference server, and the test collection Entra ID's gallery review runs, answer
 * 204: a directory made for Entra ID gets 204 (with the ETag), every other one 200.
 */
export function patchResponse(provider: string, resource: { meta: { version: string; location: string } }, body: unknown): ScimResponse {
  if (provider === "entra_id") return scimResponse(204, null, { ETag: resource.meta.version });
  return { ...resourceResponse(200, resource), body };
}

export function listResponse(resources: unknown[], totalResults: number, startIndex: number): ScimResponse {
  return scimResponse(200, { schemas: [LIST_RESPONSE], totalResults, itemsPerPage: resources.length, startIndex, Resources: resources });
}

export const versionTag = (version: number) => `W/"${version}"`;

/** If-Match (RFC 7644 §3.14): a write on a resource whose version is not one of those named is refused. */
export function assertIfMatch(ifMatch: string | null, version: number): void {
  if (ifMatch === null || ifMatch.trim() === "*") return;
  const tags = ifMatch.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  if (!tags.includes(`"${version}"`))
    throw new ScimError(412, null, `The resource's version is ${versionTag(version)}; it was changed since`);
}

/** Query parameters reach SQL (a filter's values): a NUL or a lone surrogate is a 400 naming the parameter. */
export function assertQueryText(query: URLSearchParams): void {
  for (const [name, value] of query) {
    const problem = textProblem(name) ?? textProblem(value);
    if (problem) throw new ScimError(400, name === "filter" ? "invalidFilter" : "invalidValue", `${name} ${problem}`);
  }
}

/** The request's JSON body: application/scim+json or application/json (Okta sends the latter), else 415. */
export function jsonBody(request: ScimRequest): unknown {
  if (request.body === null) throw new ScimError(413, null, "The request body exceeds 1 MiB");
  if (request.body.trim() === "") throw new ScimError(400, "invalidSyntax", "The request has no body");
  const media = request.contentType?.split(";")[0]?.trim().toLowerCase();
  if (media && media !== "application/json" && !media.endsWith("+json"))
    throw new ScimError(415, null, "Send the body as application/scim+json or application/json");
  try {
    const parsed: unknown = JSON.parse(request.body);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new ScimError(400, "invalidSyntax", "The body must be a JSON object");
    // What Postgres cannot store (NUL, lone surrogates) and nesting past MAX_JSON_DEPTH: 400, never a 500.
    const bad = findBadText(parsed);
    if (bad) throw new ScimError(400, "invalidValue", `${bad.path || "body"} ${bad.message}`);
    return parsed;
  } catch (error) {
    if (error instanceof ScimError) throw error;
    throw new ScimError(400, "invalidSyntax", "The request body is not valid JSON");
  }
}
