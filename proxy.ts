/**
 * Runs before every page: a fresh CSP nonce per request (server/ops/csp.ts; Next reads the policy
 * from the request headers and puts the nonce on its scripts, so pages render dynamically), HSTS
 * over https, and the requested path for server components (Next gives layouts no pathname), so
 * the console layout can send a signed-out visitor to /login and back. No auth decisions here:
 * server/account/session.ts `requireUser` makes them.
 */
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, createNonce, HSTS, NONCE_HEADER, servedOverHttps } from "@/server/ops/csp";

export function proxy(request: NextRequest) {
  const nonce = createNonce();
  const https = servedOverHttps((name) => request.headers.get(name));
  const policy = contentSecurityPolicy(nonce, { https, dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  // Read by requireUser() in server/account/session.ts.
  headers.set("x-request-path", request.nextUrl.pathname + request.nextUrl.search);
  headers.set(NONCE_HEADER, nonce);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  if (https) response.headers.set("Strict-Transport-Security", HSTS);
  return response;
}

export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico).*)"],
};
