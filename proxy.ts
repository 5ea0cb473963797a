/**
 * Tells server components which path was requested (Next gives layouts no pathname), so the
 * console layout can send a signed-out visitor to /login and back. No auth decisions here:
 * server/auth/session.ts `requireUser` makes them.
 */
import { NextResponse, type NextRequest } from "next/server";

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  // Read by requireUser() in server/auth/session.ts.
  headers.set("x-request-path", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/((?!api/|_next/|docs|login|favicon.ico).*)"],
};
