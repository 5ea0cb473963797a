/**
 * node:http ⇄ fetch Request/Response, for serving the REST edge without Next in front of it
 * (scripts/serve.ts) and for tests (test/support/api.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

const PLAIN_ORIGIN = /^https?:\/\/[\w.\-:[\]]+$/;

/** `body`: the body already read (null: none, it was kept aside); else the Request streams it from `req`. */
export function toWebRequest(req: IncomingMessage, origin: string, body?: Buffer | null): Request {
  // Pairs, not a Headers object: the Request builds its own Headers from them (once, not twice).
  // X-Forwarded-For holds the one address settleClientAddress decided.
  const headers: [string, string][] = [];
  for (const [key, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.push([key, value]);
    else if (Array.isArray(value)) for (const v of value) headers.push([key, v]);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  // An origin-form target ("/api/v1/x?y") appended to a plain origin is the URL new URL() would
  // make, parsed once (by the Request) rather than twice; "//host" and "/\\host" would name a host.
  const target = req.url ?? "/";
  const plain = target[0] === "/" && target[1] !== "/" && target[1] !== "\\" && PLAIN_ORIGIN.test(origin);
  return new Request(plain ? origin + target : new URL(target, origin), {
    method,
    headers,
    body: hasBody && body !== null ? (body ?? (Readable.toWeb(req) as ReadableStream)) : undefined,
    duplex: "half",
  } as RequestInit);
}

/**
 * Decides a request's client address, once, where it enters (the node server before it serves
 * anything, Next included; the test servers): X-Forwarded-For becomes that one address, which is
 * what every reader (clientIp: audit events, rate limits, sign-in limits) then sees.
 * - Without TRUST_PROXY: the socket's address. Whatever the client wrote in X-Forwarded-For or
 *   X-Real-IP is dropped: rotating it must not evade a limit, nor put a chosen address in the log.
 * - With TRUST_PROXY=true: the last X-Forwarded-For entry, the one the proxy in front appended
 *   (entries before it are what the client claimed), else X-Real-IP, else the socket's address.
 */
export function settleClientAddress(req: IncomingMessage, trustProxy: boolean): void {
  const socket = req.socket.remoteAddress ?? "";
  let address = socket;
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const chain = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",");
    const appended = chain[chain.length - 1]!.trim();
    const realIp = req.headers["x-real-ip"];
    address = appended || (typeof realIp === "string" && realIp.trim()) || socket;
  }
  req.headers["x-forwarded-for"] = address;
  delete req.headers["x-real-ip"];
}

/** Bodies declared this small are read before the Request is made (see `readWebRequest`). */
const SMALL_BODY_BYTES = 64 * 1024;

/** Small bodies read by `readWebRequest` with `{ aside: true }`, for `bodyReadAside`. */
const asideBodies = new WeakMap<Request, Buffer>();

/** The body `readWebRequest` read for `req` and kept beside it (the Request itself has none), if it did. */
export function bodyReadAside(req: Request): Buffer | undefined {
  return asideBodies.get(req);
}

/**
 * As `toWebRequest`, but a body whose Content-Length declares at most 64 KiB is read first and
 * given to the Request as bytes: a web stream over the socket (Readable.toWeb) costs more CPU than
 * the rest of a small JSON request's parsing. Node's parser ends the body at the declared length,
 * so no more than that is held; other bodies stream as before. Rejects if the client goes away
 * before its body has arrived.
 *
 * `aside`: for a handler that reads bodies with `bodyReadAside` (the REST edge, rest.ts), such a
 * body is kept beside the Request instead of in it, so that no web stream is made at all (the
 * Request's own stream and its reader were a few per cent of a small request's CPU).
 */
export async function readWebRequest(req: IncomingMessage, origin: string, { aside = false } = {}): Promise<Request> {
  const declared = Number(req.headers["content-length"]);
  const method = req.method ?? "GET";
  const small = declared >= 0 && declared <= SMALL_BODY_BYTES && !req.headers["transfer-encoding"];
  if (method === "GET" || method === "HEAD" || !small) return toWebRequest(req, origin);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  if (!aside) return toWebRequest(req, origin, body);
  const request = toWebRequest(req, origin, null);
  asideBodies.set(request, body);
  return request;
}

/**
 * A Response whose body is `text`, made without the web stream a body needs (a third of the cost
 * of answering a small JSON request): `sendWebResponse` writes the text itself. Whoever reads the
 * body as a Response (Next in `next dev`, tests, the idempotency store) gets a real one, made from
 * the text on first read.
 */
class TextResponse extends Response {
  readonly #text: string;
  #made: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
    // What `new Response(text)` would have set.
    if (!this.headers.has("content-type")) this.headers.set("content-type", "text/plain;charset=UTF-8");
  }

  static textOf(response: Response): string | undefined {
    return response instanceof TextResponse ? response.#text : undefined;
  }

  override clone(): Response {
    return new TextResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  #response(): Response {
    return (this.#made ??= new Response(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  static {
    // Over Response's own accessors and readers (TypeScript declares `body` a field, hence here).
    const proto = this.prototype;
    Object.defineProperty(proto, "body", {
      get(this: TextResponse) {
        return this.#response().body;
      },
    });
    Object.defineProperty(proto, "bodyUsed", {
      get(this: TextResponse) {
        return this.#made?.bodyUsed ?? false;
      },
    });
    for (const reader of ["text", "json", "arrayBuffer", "blob", "formData", "bytes"]) {
      if (!(reader in Response.prototype)) continue;
      Object.defineProperty(proto, reader, {
        value(this: TextResponse) {
          return (this.#response() as unknown as Record<string, () => Promise<unknown>>)[reader]!();
        },
      });
    }
  }
}

/** A Response answering `body` (null: none); see TextResponse. */
export function textResponse(body: string | null, init: ResponseInit): Response {
  return body ? new TextResponse(body, init) : new Response(null, init);
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = key === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  const aside = TextResponse.textOf(response);
  if (aside !== undefined) {
    headers["content-length"] = String(Buffer.byteLength(aside));
    res.writeHead(response.status, headers);
    res.end(aside);
    return;
  }
  if (!response.body) {
    res.writeHead(response.status, headers);
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
    // A body made whole in memory (every JSON answer) is one chunk: sent with its length, in one
    // write with the head, rather than chunked with a second write for the last chunk.
    const first = await reader.read();
    const second = first.done ? first : await reader.read();
    if (second.done) {
      const body = first.done ? undefined : first.value;
      headers["content-length"] = String(body?.byteLength ?? 0);
      res.writeHead(response.status, headers);
      res.end(body);
      return;
    }
    res.writeHead(response.status, headers);
    const pending = [first.value!, second.value];
    for (;;) {
      const { done, value } = pending.length ? { done: false, value: pending.shift()! } : await reader.read();
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
