/**
 * The REST edge for /api/v1: request id, rate limit, body checks (415, 413), idempotency, the
 * operation, and problem+json for every error. Route handlers call `handleRest` and nothing else.
 */
import { AppError } from "../errors.ts";
import { database } from "../db/client.ts";
import { createRestContext } from "../trpc/create-context.ts";
import { authenticateBearer, bearerOf } from "../auth/credentials.ts";
import { hashToken } from "../auth/tokens.ts";
import { invokeOperation } from "./openapi-handler.ts";
import { errorResponse, problemResponse } from "../contract/problem.ts";
import { publicUrl, requestIdOf } from "../contract/request.ts";
import * as idempotency from "./idempotency.ts";
import * as rateLimit from "../auth/rate-limit.ts";
import { exportAudit } from "./audit-export.ts";
import { decodeUtf8 } from "../contract/fields.ts";
import { bodyReadAside } from "./node.ts";
import { assertHeaderText, assertUrlText } from "./text.ts";
import type { Context } from "../trpc/context.ts";

export const API_PREFIX = "/api/v1";
export const MAX_BODY_BYTES = 1024 * 1024;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
/** Streamed, so served here rather than through the tRPC adapter (which buffers JSON). */
const AUDIT_EXPORT_PATH = /^\/tenants\/([^/]+)\/audit\/export\/?$/;

/** Bodies up to this size are read to the end even when refused, so the client sees the 413. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

async function readBody(req: Request): Promise<string> {
  const tooLarge = () => new AppError("payload_too_large", "The request body exceeds 1 MiB");
  const aside = bodyReadAside(req);
  let bytes: Buffer;
  if (aside) {
    if (aside.byteLength > MAX_BODY_BYTES) throw tooLarge();
    bytes = aside;
  } else {
    bytes = await readStreamedBody(req, tooLarge);
  }
  // Strictly: a lenient decoder would turn bytes that are not UTF-8 into U+FFFD and store those.
  const text = decodeUtf8(bytes);
  if (text === null)
    throw new AppError("invalid_request", "The request body is not valid UTF-8", {
      errors: [{ path: "body", message: "is not valid UTF-8" }],
    });
  return text;
}

async function readStreamedBody(req: Request, tooLarge: () => AppError): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (!req.body) return Buffer.alloc(0);
  if (declared > DRAIN_LIMIT_BYTES) {
    await req.body.cancel();
    throw tooLarge();
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      break;
    }
    if (size <= MAX_BODY_BYTES) chunks.push(value);
  }
  if (size > MAX_BODY_BYTES) throw tooLarge();
  return Buffer.concat(chunks);
}

function parseJsonBody(method: string, contentType: string | null, raw: string): unknown {
  if (!BODY_METHODS.has(method)) return undefined;
  if (raw.length === 0) return undefined;
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (!mediaType || !(mediaType === "application/json" || mediaType.endsWith("+json"))) {
    throw new AppError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new AppError("invalid_request", "The request body is not valid JSON", {
      errors: [{ path: "body", message: "invalid JSON" }],
    });
  }
}

function unexpected(error: unknown, requestId: string, req: Request, url: URL): Response {
  return errorResponse(error, {
    requestId,
    origin: url.origin,
    log: "unhandled error in REST edge",
    fields: { method: req.method, path: url.pathname },
  });
}

/**
 * Serves `handler` under the API rate limit: the caller (token, else client address) is resolved
 * first and counted; past the quota the answer is 429 without running anything (so idempotency
 * never stores it), and every answer carries the RateLimit fields.
 */
export async function underRateLimit(req: Request, requestId: string, handler: (context: Context) => Promise<Response>): Promise<Response> {
  const url = publicUrl(req);
  let usage: rateLimit.Usage | null = null;
  let response: Response;
  try {
    // A token's request is served from this instance's lease on it, or counted inside its lookup;
    // callers without a valid token are counted by address.
    const tokenPolicy = rateLimit.tokenPolicy();
    const bearer = bearerOf(req);
    const leaseKey = bearer ? `bearer:${hashToken(bearer)}` : null;
    const leased = tokenPolicy && leaseKey ? rateLimit.takeLeased(tokenPolicy, leaseKey) : null;
    const auth = await authenticateBearer(await database(), req, leased ? null : tokenPolicy);
    const context = await createRestContext(req, requestId, auth);
    usage = context.principal?.token
      ? (leased ?? (tokenPolicy && auth.hit ? rateLimit.granted(tokenPolicy, leaseKey!, auth.hit) : null))
      : await rateLimit.hitAddress(context.db.sql, context.request.ip);
    response = usage?.limited
      ? problemResponse(
          {
            code: "rate_limited",
            detail: `Rate limit "${usage.policy.name}" exceeded: ${usage.policy.quota} requests per ${usage.policy.windowSeconds} s; retry after ${usage.resetSeconds} s`,
          },
          requestId,
          url.origin,
        )
      : await handler(context);
  } catch (error) {
    response = unexpected(error, requestId, req, url);
  }
  if (usage) for (const [name, value] of Object.entries(rateLimit.rateLimitHeaders(usage))) response.headers.set(name, value);
  return response;
}

export function handleRest(req: Request): Promise<Response> {
  const requestId = requestIdOf(req);
  return underRateLimit(req, requestId, (context) => serve(req, requestId, context));
}

async function serve(req: Request, requestId: string, context: Context): Promise<Response> {
  const url = publicUrl(req);
  const origin = url.origin;
  const method = req.method.toUpperCase();
  const operationPath = url.pathname.slice(API_PREFIX.length) || "/";
  const contextOnce = () => Promise.resolve(context);
  try {
    assertUrlText(method, url, API_PREFIX.length);
    assertHeaderText(req.headers);
    const auditExport = method === "GET" ? AUDIT_EXPORT_PATH.exec(operationPath) : null;
    if (auditExport) {
      return await exportAudit(req, auditExport[1]!, contextOnce, requestId);
    }
    const raw = BODY_METHODS.has(method) ? await readBody(req) : "";
    const body = parseJsonBody(method, req.headers.get("content-type"), raw);
    const operationUrl = new URL(operationPath + url.search, url.origin);
    const run = () => invokeOperation(req, operationUrl, body, contextOnce);

    const key = req.headers.get("idempotency-key");
    const credential = bearerOf(req);
    if (key === null || !BODY_METHODS.has(method) || !credential) {
      return await respond(await run());
    }

    idempotency.validateKey(key);
    const { sql } = await database();
    const claim = await idempotency.claim(
      sql,
      idempotency.scopeOf(credential),
      key,
      idempotency.fingerprint(method, operationPath + url.search, raw),
    );
    if (claim.kind === "replay") {
      const { status, headers, body: sealed } = claim.response;
      const stored = sealed && idempotency.unseal(credential, sealed);
      return new Response(stored || null, {
        status,
        headers: { ...headers, "Idempotent-Replayed": "true", "X-Request-Id": requestId },
      });
    }
    let response: Response;
    try {
      response = await respond(await run());
    } catch (error) {
      await idempotency.release(sql, claim.id);
      throw error;
    }
    if (idempotency.shouldStore(response.status)) {
      const text = await response.clone().text();
      const keep: Record<string, string> = {};
      for (const name of ["content-type", "location", "www-authenticate"]) {
        const value = response.headers.get(name);
        if (value) keep[name] = value;
      }
      await idempotency.complete(sql, claim.id, {
        status: response.status,
        headers: keep,
        body: text && idempotency.seal(credential, text),
      });
    } else {
      await idempotency.release(sql, claim.id);
    }
    return response;
  } catch (error) {
    return unexpected(error, requestId, req, url);
  }

  async function respond(result: Awaited<ReturnType<typeof invokeOperation>>): Promise<Response> {
    if (result.status < 400 && !result.error) {
      const empty = result.status === 204 || result.body === "" || result.body === undefined;
      const kept = empty ? result.headers.filter(([name]) => name.toLowerCase() !== "content-type") : result.headers;
      return new Response(empty ? null : result.body, { status: result.status, headers: [...kept, ["X-Request-Id", requestId]] });
    }
    return errorResponse(result.error ?? new Error(`the operation answered ${result.status} without an error`), {
      requestId,
      origin,
      log: "operation failed",
      fields: { method, path: url.pathname },
      operation: { method, path: operationPath },
    });
  }
}
