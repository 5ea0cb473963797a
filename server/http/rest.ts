/**
 * The REST edge for /api/v1. A request passes these stages, in order, over one Exchange
 * (exchange.ts) that carries what each stage found out to the next:
 *
 *   rate limit   `admit`: the caller is authenticated and counted; past its quota the answer is
 *                429 and nothing else runs (so idempotency never stores it)
 *   text         `assertRequestText` (text.ts): the URL and the stored headers are UTF-8 text
 *   route        `assertRoute` (route.ts): a documented operation (405 for another method of
 *                its path) taking each query parameter sent
 *   export       `streamedExport` (audit-export.ts): the audit export streams its own answer
 *   body         `readJsonBody` (body.ts): 413, 415 or 400 for a body that is not small JSON
 *   idempotency  `idempotent` (idempotency.ts): an Idempotency-Key's stored answer, or store this one
 *   invoke       `invoke` (openapi-handler.ts): the operation, its procedure called from its OpenAPI meta
 *   respond      `respond`: its result as the Response, problem+json for its error
 *
 * A stage refuses by throwing an AppError, which becomes problem+json; once the caller is
 * counted, every answer carries the RateLimit fields. Route handlers call `handleRest` and
 * nothing else.
 */
import { database } from "../db/client.ts";
import { createRestContext } from "../trpc/create-context.ts";
import { authenticateBearer } from "../auth/credentials.ts";
import { hashToken } from "../auth/tokens.ts";
import { invokeOperation, type OperationResult } from "./openapi-handler.ts";
import { errorResponse, problemResponse } from "../contract/problem.ts";
import { idempotent } from "./idempotency.ts";
import * as rateLimit from "../auth/rate-limit.ts";
import { exportAudit, exportAuditSearch } from "./audit-export.ts";
import { readJsonBody } from "./body.ts";
import { assertRequestText } from "./text.ts";
import { assertRoute } from "./route.ts";
import { textResponse } from "./node.ts";
import { openExchange, type Admitted, type Exchange } from "./exchange.ts";

/** Streamed, so served here rather than through the tRPC adapter (which buffers JSON). */
const AUDIT_EXPORT_PATH = /^\/tenants\/([^/]+)\/audit\/export\/?$/;
/** The platform search's export (operators and support), streamed likewise. */
const AUDIT_SEARCH_EXPORT_PATH = /^\/audit\/export\/?$/;
/** Audit appends, one event or a batch: counted under the token's ingest quota, not its general one. */
const AUDIT_APPEND_PATH = /^\/tenants\/[^/]+\/audit(\/batch)?\/?$/;

export function handleRest(req: Request): Promise<Response> {
  return underRateLimit(req, serve);
}

/**
 * The stages after the rate limit. A new check of the request goes after `assertRoute`; a new
 * check of the body (a depth cap on its JSON) into `readJsonBody`.
 */
async function serve(x: Admitted): Promise<Response> {
  assertRequestText(x);
  assertRoute(x);
  const exported = streamedExport(x);
  if (exported) return exported;
  await readJsonBody(x);
  return idempotent(x, async () => respond(x, await invoke(x)));
}

/**
 * Answers with `next` under the API rate limit (the REST edge, and the OpenAPI document), or
 * with the 429; either way with the RateLimit fields, and problem+json for any error.
 */
export async function underRateLimit(req: Request, next: (x: Admitted) => Promise<Response>): Promise<Response> {
  const x = openExchange(req);
  let response: Response;
  try {
    const admitted = await admit(x);
    response = x.usage?.limited ? tooManyRequests(x, x.usage) : await next(admitted);
  } catch (error) {
    response = unexpected(error, x);
  }
  if (x.usage) for (const [name, value] of Object.entries(rateLimit.rateLimitHeaders(x.usage))) response.headers.set(name, value);
  return response;
}

/**
 * The rate-limit stage: the caller, and its count in `usage`. A token's request is served from
 * this instance's lease on it, or counted inside its lookup (one such claim per token in flight
 * at a time: rate-limit.ts `leaseOrClaim`), under the token's ingest quota for an audit append
 * and its general one otherwise; callers without a valid token are counted by address.
 */
async function admit(x: Exchange): Promise<Admitted> {
  const ingest = x.method === "POST" && AUDIT_APPEND_PATH.test(x.path);
  const tokenPolicy = ingest ? rateLimit.ingestPolicy() : rateLimit.tokenPolicy();
  const hash = x.bearer ? hashToken(x.bearer) : undefined;
  const db = await database();
  const counted =
    hash && tokenPolicy
      ? await rateLimit.leaseOrClaim(tokenPolicy, `${tokenPolicy.partition}:bearer:${hash}`, async () => {
          const auth = await authenticateBearer(db, x.req, tokenPolicy, hash);
          return { result: auth, hit: auth.hit };
        })
      : null;
  const auth = counted?.claimed?.result ?? (await authenticateBearer(db, x.req, null, hash));
  const context = await createRestContext(x.req, x.requestId, auth, x.url);
  x.usage = context.principal?.token ? (counted?.usage ?? null) : await rateLimit.hitAddress(context.db.sql, context.request.ip);
  return Object.assign(x, { context });
}

function tooManyRequests(x: Exchange, usage: rateLimit.Usage): Response {
  return problemResponse({ code: "rate_limited", detail: rateLimit.limitedDetail(usage) }, x.requestId, x.url.origin);
}

function streamedExport(x: Admitted): Promise<Response> | null {
  if (x.method === "GET" && AUDIT_SEARCH_EXPORT_PATH.test(x.path)) {
    return exportAuditSearch(x.req, () => Promise.resolve(x.context), x.requestId);
  }
  const match = x.method === "GET" ? AUDIT_EXPORT_PATH.exec(x.path) : null;
  return match && exportAudit(x.req, match[1]!, () => Promise.resolve(x.context), x.requestId);
}

function invoke(x: Admitted): Promise<OperationResult> {
  return invokeOperation(x.method, new URL(x.path + x.url.search, x.url.origin), x.req.headers.get("content-type"), x.body, x.context);
}

function respond(x: Admitted, result: OperationResult): Response {
  if (result.status < 400 && !result.error) {
    const empty = result.status === 204 || result.body === "" || result.body === undefined;
    const kept = empty ? result.headers.filter(([name]) => name.toLowerCase() !== "content-type") : result.headers;
    return textResponse(empty ? null : result.body, { status: result.status, headers: [...kept, ["X-Request-Id", x.requestId]] });
  }
  return errorResponse(result.error ?? new Error(`the operation answered ${result.status} without an error`), {
    requestId: x.requestId,
    origin: x.url.origin,
    log: "operation failed",
    fields: { method: x.method, path: x.url.pathname },
    operation: { method: x.method, path: x.path },
    input: result.input,
  });
}

/** A stage's refusal (an AppError) as its problem+json; anything unexpected is logged (errorResponse). */
function unexpected(error: unknown, x: Exchange): Response {
  return errorResponse(error, {
    requestId: x.requestId,
    origin: x.url.origin,
    log: "unhandled error in REST edge",
    fields: { method: x.req.method, path: x.url.pathname },
  });
}
