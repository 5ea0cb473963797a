/**
 * The REST edge's body stage: a POST, PUT or PATCH body is read whole (413 past 1 MiB), decoded
 * strictly as UTF-8 and parsed as JSON (415 for another media type, 400 when it is not JSON).
 * A new check on the body (a depth cap on its JSON, say) is one more step of `readJsonBody`.
 */
import { AppError } from "../errors.ts";
import { decodeUtf8 } from "../contract/fields.ts";
import type { Exchange } from "./exchange.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
export const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Bodies up to this size are read to the end even when refused, so the client sees the 413. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

const tooLarge = () => new AppError("payload_too_large", "The request body exceeds 1 MiB");

/** Sets the exchange's `raw` and `body`; other methods keep "" and undefined. */
export async function readJsonBody(x: Exchange): Promise<void> {
  if (!BODY_METHODS.has(x.method)) return;
  x.raw = await readText(x);
  x.body = parseJson(x.raw, x.req.headers.get("content-type"));
}

async function readText(x: Exchange): Promise<string> {
  let bytes: Buffer;
  if (x.bodyAside) {
    if (x.bodyAside.byteLength > MAX_BODY_BYTES) throw tooLarge();
    bytes = x.bodyAside;
  } else {
    bytes = await readStreamedBody(x.req);
  }
  // Strictly: a lenient decoder would turn bytes that are not UTF-8 into U+FFFD and store those.
  const text = decodeUtf8(bytes);
  if (text === null)
    throw new AppError("invalid_request", "The request body is not valid UTF-8", {
      errors: [{ path: "body", message: "is not valid UTF-8" }],
    });
  return text;
}

async function readStreamedBody(req: Request): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (!req.body) return Buffer.alloc(0);
  if (declared > DRAIN_LIMIT_BYTES) {
    await req.body.cancel();
    throw tooLarge();
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      break;
    }
    if (size <= MAX_BODY_BYTES) chunks.push(value);
  }
  if (size > MAX_BODY_BYTES) throw tooLarge();
  return Buffer.concat(chunks);
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
