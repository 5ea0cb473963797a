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
  // A client that goes away mid-stream cancels the body, so whatever produces it (an export's
  // COPY holding a pooled connection, say) stops too, instead of waiting for a drain that never comes.
  const reader = response.body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    void reader.cancel().catch(() => undefined);
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            res.off("drain", wake);
            res.off("close", wake);
            resolve();
          };
          res.on("drain", wake);
          res.on("close", wake);
        });
      }
    }
  } finally {
    res.off("close", onClose);
  }
  if (!gone) res.end();
}
