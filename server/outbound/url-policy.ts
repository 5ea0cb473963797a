/**
 * Where the control plane may be told to call (README: the SSRF guard), checked when a URL is stored (SSO
 * metadata, webhook targets): https, or plain http where OUTBOUND_ALLOW_PRIVATE allows; no
 * credentials; never a private or loopback literal unless allowed. Names that resolve to private
 * addresses are refused at call time by the SSRF guard (./guard.ts, `safeFetch`).
 */
import "server-only";
import { isIP } from "node:net";
import { env } from "../env.ts";
import { InvalidRequest } from "../errors.ts";
import { isPrivateAddress } from "./guard.ts";
import { PRIVATE_REFUSED, type OutboundPolicy } from "./schemas.ts";

export function outboundPolicy(): OutboundPolicy {
  return { private_hosts: env().OUTBOUND_ALLOW_PRIVATE };
}

/** A host written as a private or loopback address, or `localhost` (names that resolve to one are the guard's at call time). */
export function isPrivateHostLiteral(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return (isIP(host) && isPrivateAddress(host)) || host === "localhost" || host.endsWith(".localhost");
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
  if (isPrivateHostLiteral(url.hostname) && !allowPrivate)
    problems.push(`must not point at a private or loopback address (${PRIVATE_REFUSED})`);
  return problems;
}

/** Throws a 400 naming `field` when the URL (if given) breaks the policy. */
export function assertOutboundUrl(field: string, value: string | undefined): void {
  if (value === undefined) return;
  const errors = outboundUrlProblems(value).map((message) => ({ path: field, message }));
  if (errors.length) throw InvalidRequest(errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);
}
