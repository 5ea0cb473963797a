/**
 * The SCIM endpoint's HTTP side: a web Request (the node server's, or Next's in `next dev`) as the
 * plain request server/directories/scim/endpoint.ts takes, and its answer as a Response.
 */
import { database } from "../db/client.ts";
import { bearerOf } from "../auth/credentials.ts";
import { publicUrl, requestIdOf, requestInfo } from "../contract/request.ts";
import { decodeUtf8 } from "../contract/fields.ts";
import { jsonInTurns } from "../contract/json-in-turns.ts";
import { handleScim } from "../directories/scim/endpoint.ts";
import { MAX_SCIM_BODY_BYTES } from "../directories/scim/limits.ts";
import type { ScimRequest } from "../directories/scim/respond.ts";
import { BODY_METHODS, readBoundedBody } from "./body.ts";

export const SCIM_PREFIX = "/api/scim/v2";

export async function handleScimRequest(req: Request): Promise<Response> {
  const url = publicUrl(req);
  const requestId = requestIdOf(req);
  const method = req.method.toUpperCase();
  const request: ScimRequest = {
    method,
    path: url.pathname.slice(SCIM_PREFIX.length),
    query: url.searchParams,
    origin: url.origin,
    bearer: bearerOf(req),
    contentType: req.headers.get("content-type"),
    ifMatch: req.headers.get("if-match"),
    body: BODY_METHODS.has(method) ? await bodyText(req) : "",
    info: requestInfo(req, requestId),
  };
  const answer = await handleScim(await database(), request);
  const headers = new Headers(answer.headers);
  headers.set("X-Request-Id", requestId);
  // A group's answer may carry tens of thousands of members: written in turns, not in one go.
  return new Response(answer.body === null ? null : await jsonInTurns(answer.body), { status: answer.status, headers });
}

/** The body as text; null past 1 MiB (the endpoint answers 413). Bytes that are not UTF-8 read as U+FFFD, then fail as JSON. */
async function bodyText(req: Request): Promise<string | null> {
  const bytes = await readBoundedBody(req, MAX_SCIM_BODY_BYTES);
  return bytes && (decodeUtf8(bytes) ?? "\uFFFD");
}
