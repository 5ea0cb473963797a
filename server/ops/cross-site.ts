/**
 * Which writes a page on another site made a browser send (routes.ts `refuseAtEntry` refuses them
 * where the request enters, before any route runs).
 */
import type { IncomingMessage } from "node:http";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether a request is a write that a page on another site made this browser send: a form or
 * script elsewhere signing a visitor into an attacker's tenant or account (login CSRF), or acting
 * in the console as them. The browser says so, and a page cannot change what it says:
 * - `Sec-Fetch-Site: cross-site`, or `same-site` (a sibling subdomain's page, another origin);
 * - an Origin naming a host that is neither the request's own (Host, or a trusted proxy's
 *   X-Forwarded-Host) nor APP_URL's (`appHost`), or `null` (sandboxed frames, data: URLs).
 * A request with neither header is not a browser's (every browser sends Origin on a cross-site
 * POST; current ones Sec-Fetch-Site too): it has no visitor's browser to forge through, and passes.
 *
 * Only writes with cookies count, unless `withoutCookies` (the sign-in entries): a write without
 * cookies acts as nobody (API clients with a token, the OAuth broker's token endpoint), but a
 * sign-in started in a browser without our cookies still signs that browser in.
 */
export function isCrossSiteWrite(req: IncomingMessage, trustProxy: boolean, appHost: string, { withoutCookies = false } = {}): boolean {
  if (!WRITES.has(req.method ?? "GET") || (!withoutCookies && !req.headers.cookie)) return false;
  const site = req.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true;
  }
  const forwardedHost = trustProxy ? req.headers["x-forwarded-host"] : undefined;
  const ownHost = typeof forwardedHost === "string" ? forwardedHost : req.headers.host;
  return host !== ownHost && host !== appHost;
}
