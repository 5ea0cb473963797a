/**
 * Calls the tRPC routers as REST through trpc-to-openapi. Its fetch adapter builds a new handler
 * (and procedure cache) per request and re-reads the body; this one builds the handler once and
 * takes the body the edge has already read and checked.
 */
import type { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { appRouter } from "../app/router.ts";
import type { Context } from "../trpc/context.ts";

interface Exchange {
  context: () => Promise<Context>;
  error?: TRPCError;
  /** The input the operation was called with (query or body, and path): what a field error is about. */
  input?: unknown;
}

const exchanges = new WeakMap<object, Exchange>();

const handler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }: { req: object }) => exchanges.get(req)!.context(),
  responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) =>
    errors.length || !ctx ? {} : { status: ctx.response.status, headers: ctx.response.headers },
  onError: ({ req, error, input }: { req: object; error: TRPCError; input: unknown }) => {
    const exchange = exchanges.get(req);
    if (exchange) Object.assign(exchange, { error, input });
  },
} as never);

export interface OperationResult {
  status: number;
  /** As the adapter set them (names as it wrote them): the Response's Headers are made once, from these. */
  headers: [string, string][];
  body: string;
  error?: TRPCError;
  input?: unknown;
}

/**
 * Runs the operation at `url` (path relative to /api/v1) with the parsed JSON `body`.
 */
export function invokeOperation(req: Request, url: URL, body: unknown, context: () => Promise<Context>): Promise<OperationResult> {
  // Bodiless POSTs (actions) are fine: present them as JSON to the adapter's content-type check.
  let headers = req.headers;
  if (body === undefined && !headers.has("content-type")) {
    headers = new Headers(req.headers);
    headers.set("content-type", "application/json");
  }
  const proxy = new Proxy(req, {
    get(target, prop) {
      if (prop === "url") return url.toString();
      if (prop === "body") return body;
      if (prop === "headers") return headers;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const exchange: Exchange = { context };
  exchanges.set(proxy, exchange);

  return new Promise((resolve, reject) => {
    const resHeaders = new Map<string, [string, string][]>();
    let statusCode = 200;
    const res = {
      // A name set again replaces what it had, as Headers.set and node's setHeader do.
      setHeader(key: string, value: string | string[]) {
        resHeaders.set(key.toLowerCase(), typeof value === "string" ? [[key, value]] : value.map((v): [string, string] => [key, v]));
      },
      get statusCode() {
        return statusCode;
      },
      set statusCode(code: number) {
        statusCode = code;
      },
      end(payload?: string) {
        resolve({
          status: statusCode,
          headers: [...resHeaders.values()].flat(),
          body: payload ?? "",
          error: exchange.error,
          input: exchange.input,
        });
      },
    };
    (handler as unknown as (req: unknown, res: unknown) => Promise<void>)(proxy, res).catch(reject);
  });
}
