import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/trpc/router";
import { createConsoleContext } from "@/server/trpc/create-context";
import { requestIdOf } from "@/server/http/request";
import { log, errorFields } from "@/server/log";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  const requestId = requestIdOf(req);
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createConsoleContext(req, requestId),
    responseMeta: () => ({ headers: new Headers({ "X-Request-Id": requestId }) }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR" && error.cause?.name !== "AppError") {
        log.error("console call failed", { request_id: requestId, path, ...errorFields(error.cause ?? error) });
      }
    },
  });
}

export { handler as GET, handler as POST };
