/**
 * Where the control plane may be told to call (docs/security.md: the SSRF guard), checked when a target is
 * stored (SSO metadata, webhook targets, log streams' URLs and syslog hosts): https, or plain http
 * where OUTBOUND_ALLOW_PRIVATE allows; no credentials; never a private or loopback host, in any
 * spelling (./hosts.ts, the guard's own test), unless allowed. Names that resolve to private
 * addresses are refused at call time by the SSRF guard (./guard.ts).
 */
import "server-only";
import { env } from "../env.ts";
import { InvalidRequest } from "../errors.ts";
import { isPrivateHost, normaliseHost } from "./hosts.ts";
import { PRIVATE_REFUSED, type OutboundPolicy } from "./schemas.ts";

export function outboundPolicy(): OutboundPolicy {
  return { private_hosts: env().OUTBOUND_ALLOW_PRIVATE };
}

const PRIVATE_HOST = `must not point at a private or loopback address (${PRIVATE_REFUSED})`;

/** Why `host` (a bare host: name, IPv4 or IPv6 address, as a syslog receiver's) may not be stored (none: it may). */
export function outboundHostProblems(host: string): string[] {
  if (normaliseHost(host) === null) return ["must be a host name or IP address (no scheme, port or path)"];
  return isPrivateHost(host) && !env().OUTBOUND_ALLOW_PRIVATE ? [PRIVATE_HOST] : [];
}

/** Why `value` may not be stored as an outbound URL (none: it may). Expects an OutboundUrl-shaped value. */
export function outboundUrlProblems(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return ["must be an absolute https URL"];
  }
  const allowPrivate = env().OUTBOUND_ALLOW_PRIVATE;
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    return [
      url.protocol === "http:"
        ? `must be https (plain http only for private and loopback hosts, which are ${PRIVATE_REFUSED})`
        : "must be an absolute https URL",
    ];
  }
  const problems: string[] = [];
  if (url.username || url.password) problems.push("must not contain credentials");
  if (isPrivateHost(url.hostname) && !allowPrivate) problems.push(PRIVATE_HOST);
  return problems;
}

/** Throws a 400 naming `field` when the URL (if given) breaks the policy. */
export function assertOutboundUrl(field: string, value: string | undefined): void {
  if (value === undefined) return;
  const errors = outboundUrlProblems(value).map((message) => ({ path: field, message }));
  if (errors.length) throw InvalidRequest(errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);
}
