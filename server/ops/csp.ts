/**
 * Browser-facing security headers that depend on the request: a Content-Security-Policy with a
 * fresh nonce per page (Next puts it on its own scripts when it finds the policy in the request
 * headers, which proxy.ts sets), and Strict-Transport-Security when the app is reached over https.
 * Scripts run only with the nonce (or when loaded by a script that had it: 'strict-dynamic'); no
 * 'unsafe-inline', no 'unsafe-eval' outside `next dev`. Inline style attributes stay allowed
 * (React's style props, Swagger UI), as CSS cannot run code.
 */
import { appUrl, env } from "../env.ts";

export const NONCE_HEADER = "x-nonce";
/** A year; not includeSubDomains, as other hosts of an operator's domain may still serve http. */
export const HSTS = "max-age=31536000";

export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("base64");
}

export function contentSecurityPolicy(nonce: string, options: { https: boolean; dev?: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Whether the client reached us over https: APP_URL says so, or a trusted proxy does. */
export function servedOverHttps(header: (name: string) => string | null): boolean {
  if (appUrl().startsWith("https:")) return true;
  return env().TRUST_PROXY && header("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}
