/**
 * AWS Signature Version 4 for one S3 request, with node:crypto only (no SDK at run time), as
 * "Authenticating Requests: Using the Authorization Header" describes it: a canonical request
 * (method, URI-encoded path, sorted query, the signed headers lowercased and trimmed, the
 * payload's hex SHA-256, also sent as `x-amz-content-sha256` so S3 checks the body), a string to
 * sign over its hash and the date/region/service scope, and an HMAC chain from `AWS4` + the secret.
 * The secret only ever enters the HMAC: nothing returned here contains it.
 */
import { createHash, createHmac } from "node:crypto";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignableRequest {
  method: string;
  /** The path exactly as sent, already URI-encoded (see `encodePath`). */
  path: string;
  /** Query parameters (none for PutObject). */
  query?: Record<string, string>;
  /** Headers to sign and send; `host` must be among them. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body (see `sha256Hex`), or UNSIGNED-PAYLOAD. */
  payloadHash: string;
  region: string;
  service: string;
  date: Date;
}

export const ALGORITHM = "AWS4-HMAC-SHA256";

export const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

/** RFC 3986 encoding, as SigV4 wants it: every byte but A-Z a-z 0-9 - _ . ~ percent-encoded. */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An object key as a request path: each segment encoded, the slashes kept (S3 does not double-encode). */
export function encodePath(key: string): string {
  return key.split("/").map(uriEncode).join("/");
}

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

function canonicalQuery(query: Record<string, string> = {}): string {
  return Object.entries(query)
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/**
 * Signs the request: the headers to send, `x-amz-date` and `x-amz-content-sha256` added and
 * `authorization` last. Every header given is signed.
 */
export function signRequest(request: SignableRequest, credentials: AwsCredentials): Record<string, string> {
  const stamp = amzDate(request.date);
  const day = stamp.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value])),
    "x-amz-date": stamp,
    "x-amz-content-sha256": request.payloadHash,
  };
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(";");
  const canonicalHeaders = names.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, " ")}\n`).join("");
  const canonicalRequest = [
    request.method.toUpperCase(),
    request.path,
    canonicalQuery(request.query),
    canonicalHeaders,
    signedHeaders,
    request.payloadHash,
  ].join("\n");
  const scope = `${day}/${request.region}/${request.service}/aws4_request`;
  const stringToSign = [ALGORITHM, stamp, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), request.region), request.service), "aws4_request");
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  return {
    ...headers,
    authorization: `${ALGORITHM} Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
