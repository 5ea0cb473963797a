/**
 * One REST request on its way through the edge's stages (rest.ts): the request, the facts every
 * stage reads (its id, public URL, operation path, credential), and what a stage found out for the
 * later ones (the caller, the rate-limit usage, the body). The facts are worked out once here,
 * where each stage used to derive its own copy from the Request.
 */
import type { Context } from "../trpc/context.ts";
import type { Usage } from "../auth/rate-limit.ts";
import { bearerOf } from "../auth/credentials.ts";
import { publicUrl, requestIdOf } from "../contract/request.ts";

export const API_PREFIX = "/api/v1";

export interface Exchange {
  readonly req: Request;
  readonly requestId: string;
  /** The URL the client used (scheme and host as `publicUrl` trusts them). */
  readonly url: URL;
  /** Upper case. */
  readonly method: string;
  /** The path under /api/v1 ("/" at least): what operations are matched on. */
  readonly path: string;
  /** From `Authorization: Bearer`: null without the header, "" when it is malformed. */
  readonly bearer: string | null;
  /** The rate-limit stage's count of the caller; null until counted, or when no policy applies. */
  usage: Usage | null;
  /** The body stage's: the body as sent ("" without one), and as parsed JSON. */
  raw: string;
  body: unknown;
}

/** An exchange past the rate-limit stage: the caller is known and its tRPC context built. */
export interface Admitted extends Exchange {
  readonly context: Context;
}

export function openExchange(req: Request): Exchange {
  const url = publicUrl(req);
  return {
    req,
    requestId: requestIdOf(req),
    url,
    method: req.method.toUpperCase(),
    path: url.pathname.slice(API_PREFIX.length) || "/",
    bearer: bearerOf(req),
    usage: null,
    raw: "",
    body: undefined,
  };
}
