import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/app/router";
import { createConsoleContext } from "@/server/trpc/create-context";
import { requestIdOf } from "@/server/contract/request";
import { decodeUtf8 } from "@/server/contract/fields";
import { problemResponse } from "@/server/contract/problem";
import { log, errorFields } from "@/server/log";

export const dynamic = "force-dynamic";

async function handler(request: Request) {
  const requestId = requestIdOf(request);
  // Bodies are decoded strictly, as on the REST edge: tRPC's lenient decoder would turn bytes that
  // are not UTF-8 into U+FFFD and store those (NUL and lone surrogates are refused by the procedures).
  let req = request;
  if (request.body) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (decodeUtf8(bytes) === null) {
      const problem = {
        code: "invalid_request" as const,
        detail: "The request body is not valid UTF-8",
        errors: [{ path: "body", message: "is not valid UTF-8" }],
      };
      return problemResponse(problem, requestId, new URL(request.url).origin);
    }
    req = new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createConsoleContext(req, requestId),
    responseMeta: ({ ctx }) => {
      const headers = new Headers({ "X-Request-Id": requestId });
      // A procedure that starts a new session (the password change) hands its cookie on.
      const cookie = ctx?.response.headers["Set-Cookie"];
      if (cookie) headers.set("Set-Cookie", cookie);
      return { headers };
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR" && error.cause?.name !== "AppError") {
        log.error("console call failed", { request_id: requestId, path, ...errorFields(error.cause ?? error) });
      }
    },
  });
}

export { handler as GET, handler as POST };
