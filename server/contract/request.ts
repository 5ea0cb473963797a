/** Facts about an incoming request: its id, public URL and client address. */
import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { env } from "../env.ts";
import type { RequestInfo } from "../auth/principal.ts";
import { decodeUtf8, plainIp } from "./fields.ts";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id if it is a sane token, else a new UUID. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The URL the client used. X-Forwarded-Proto/Host are honoured only when TRUST_PROXY=true. */
export function publicUrl(req: Request): URL {
  const url = new URL(req.url);
  const host = env().TRUST_PROXY ? (req.headers.get("x-forwarded-host") ?? req.headers.get("host")) : req.headers.get("host");
  const proto = env().TRUST_PROXY ? req.headers.get("x-forwarded-proto") : null;
  if (host) url.host = host.split(",")[0]!.trim();
  if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
  return url;
}

/**
 * The client address: the one address X-Forwarded-For holds once the request has entered
 * (settleClientAddress in server/http/node.ts decides it from the socket, or behind a trusted
 * proxy from the entry that proxy appended). Only an IP address is an address: anything else is
 * ignored (it is stored with audit events and keys the limits). An IPv4 client is `203.0.113.7`,
 * never the IPv4-mapped `::ffff:203.0.113.7` a dual-stack socket reports.
 */
export function clientIp(header: (name: string) => string | null): string | null {
  const chain = (header("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => isIP(s) !== 0);
  return plainIp(chain.at(-1) ?? null);
}

/** Request facts from a header lookup (next-auth hands its callbacks plain header objects). */
export function requestInfoFromHeaders(header: (name: string) => string | null, requestId: string): RequestInfo {
  return { requestId, ip: clientIp(header), userAgent: headerText(header("user-agent"))?.slice(0, 512) ?? null };
}

/** The request's cookies as a plain object (next-auth's getToken reads `req.cookies`, not the header). */
export function cookiesOf(req: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return cookies;
}

export function requestInfo(req: Request, requestId: string): RequestInfo {
  return requestInfoFromHeaders((name) => req.headers.get(name), requestId);
}

/** A header value as the client meant it: HTTP hands us its bytes as latin1 characters. */
function headerText(value: string | null): string | null {
  if (value === null) return null;
  return decodeUtf8(Buffer.from(value, "latin1")) ?? value;
}
