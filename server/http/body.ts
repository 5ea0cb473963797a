/**
 * Request bodies at the edge. `readBoundedBody` reads one within a limit, for every handler that
 * takes a body (the REST edge here, SCIM in scim.ts). The REST edge's body stage: a POST, PUT or
 * PATCH body is read whole (413 past 1 MiB), decoded strictly as UTF-8 and parsed as JSON (415 for
 * another media type, 400 when it is not JSON). A new check on the body (a depth cap on its JSON,
 * say) is one more step of `readJsonBody`.
 */
import { AppError } from "../errors.ts";
import { decodeUtf8 } from "../contract/fields.ts";
import type { Exchange } from "./exchange.ts";
import { bodyReadAside } from "./node.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
export const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

const tooLarge = () => new AppError("payload_too_large", "The request body exceeds 1 MiB");

/** Sets the exchange's `raw` and `body`; other methods keep "" and undefined. */
export async function readJsonBody(x: Exchange): Promise<void> {
  if (!BODY_METHODS.has(x.method)) return;
  x.raw = await readText(x);
  x.body = parseJson(x.raw, x.req.headers.get("content-type"));
}

async function readText(x: Exchange): Promise<string> {
  const bytes = await readBoundedBody(x.req, MAX_BODY_BYTES);
  if (bytes === null) throw tooLarge();
  // Strictly: a lenient decoder would turn bytes that are not UTF-8 into U+FFFD and store those.
  const text = decodeUtf8(bytes);
  if (text === null)
    throw new AppError("invalid_request", "The request body is not valid UTF-8", {
      errors: [{ path: "body", message: "is not valid UTF-8" }],
    });
  return text;
}

/**
 * The body's bytes, or null past `maxBytes`. A small body node.ts read aside is taken as it is; a
 * streamed one is read to its end up to 16 times the limit, so that the client sees the 413 rather
 * than a reset connection, and given up beyond that (or at once, when its Content-Length says so).
 */
export async function readBoundedBody(req: Request, maxBytes: number): Promise<Buffer | null> {
  const aside = bodyReadAside(req);
  if (aside) return aside.byteLength > maxBytes ? null : aside;
  if (!req.body) return Buffer.alloc(0);
  const drainLimit = 16 * maxBytes;
  if (Number(req.headers.get("content-length") ?? "0") > drainLimit) {
    await req.body.cancel();
    return null;
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > drainLimit) {
      await reader.cancel();
      break;
    }
    if (size <= maxBytes) chunks.push(value);
  }
  return size > maxBytes ? null : Buffer.concat(chunks);
}

/** An empty body is no body (an action's POST); anything else must be JSON, and say so. */
function parseJson(raw: string, contentType: string | null): unknown {
  if (raw.length === 0) return undefined;
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (!mediaType || !(mediaType === "application/json" || mediaType.endsWith("+json"))) {
    throw new AppError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new AppError("invalid_request", "The request body is not valid JSON", {
      errors: [{ path: "body", message: "invalid JSON" }],
    });
  }
}
