/**
 * node:http ⇄ fetch Request/Response, for serving the REST edge without Next in front of it
 * (scripts/serve.ts) and for tests (test/support/api.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

export function toWebRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(key, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
  }
  // As Next's server does: the socket address is appended to X-Forwarded-For.
  const forwarded = headers.get("x-forwarded-for");
  const socket = String(req.socket.remoteAddress ?? "");
  headers.set("x-forwarded-for", forwarded ? `${forwarded}, ${socket}` : socket);
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: "half",
  } as RequestInit);
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = key === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}
