/**
 * A real S3-compatible server in the test process: `s3rver` on 127.0.0.1 (a free port, a temp
 * directory), its buckets made up front, read back with `@aws-sdk/client-s3` (path style).
 *
 * s3rver checks an access key's existence but not a SigV4 signature, so a front middleware does
 * what S3 does with a signed request, with the AWS SDK's own signer (@smithy/signature-v4) as the
 * reference: the signature is recomputed over the request as received (403 SignatureDoesNotMatch),
 * the body's SHA-256 compared with `x-amz-content-sha256` (400 XAmzContentSHA256Mismatch) and its
 * MD5 with `Content-MD5` (400 BadDigest). The SDK's own requests (the reads) pass the same check.
 * `failNext` scripts the answers of a throttled S3 (503 SlowDown with Retry-After, say).
 */
import { createHash, createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { SignatureV4 } from "@smithy/signature-v4";
import S3rver from "s3rver";
import AWSAccount from "s3rver/lib/models/account.js";

export interface ScriptedAnswer {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

export interface ReceivedPut {
  path: string;
  headers: Record<string, string>;
  bytes: number;
  /** What the server answered. */
  status: number;
}

export interface TestS3 {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  client: S3Client;
  /** Every PUT that reached the server, in order. */
  puts: ReceivedPut[];
  /** The next `times` requests get `answer` instead of reaching the store. */
  failNext(answer: ScriptedAnswer, times?: number): void;
  keys(bucket: string, prefix?: string): Promise<string[]>;
  get(bucket: string, key: string): Promise<{ body: Buffer; text: string; metadata: Record<string, string>; contentType?: string }>;
  close(): Promise<void>;
}

const bytes = (data: string | ArrayBuffer | ArrayBufferView): string | Buffer =>
  typeof data === "string"
    ? data
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** node:crypto as the hash the SDK's signer takes (HMAC when given a key). */
export class NodeSha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

interface KoaContext {
  req: import("node:http").IncomingMessage & { [key: string]: unknown };
  method: string;
  status: number;
  type: string;
  body: unknown;
  set(name: string, value: string): void;
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

function answer(ctx: KoaContext, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  ctx.status = status;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.type = "application/xml";
  ctx.body = xmlError(code, message);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Recomputes the request's SigV4 signature with the SDK's signer; the reason it fails, or null. */
async function signatureProblem(ctx: KoaContext, secrets: Map<string, string>): Promise<string | null> {
  const auth = ctx.req.headers.authorization ?? "";
  const parts =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!parts) return "malformed";
  const [, accessKeyId, , region, service, signedHeaders, signature] = parts as unknown as string[];
  const secretAccessKey = secrets.get(accessKeyId!);
  if (secretAccessKey === undefined) return null; // s3rver answers InvalidAccessKeyId itself
  const url = new URL(ctx.req.url ?? "/", "http://placeholder");
  const headers = Object.fromEntries(signedHeaders!.split(";").map((name) => [name, String(ctx.req.headers[name] ?? "")]));
  const stamp = headers["x-amz-date"] ?? "";
  const date = new Date(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({
    credentials: { accessKeyId: accessKeyId!, secretAccessKey },
    region: region!,
    service: service!,
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: true,
  });
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const rawPath = (ctx.req.url ?? "/").split("?")[0]!;
  const signed = await signer.sign(
    { method: ctx.method, protocol: "http:", hostname: headers.host ?? "", path: rawPath, query, headers },
    { signingDate: date, signableHeaders: new Set(Object.keys(headers)) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1];
  return expected === signature ? null : "mismatch";
}

export async function startS3(options: { buckets: string[]; region?: string }): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), "s3rver-"));
  const credentials = {
    accessKeyId: `AKIA${createHash("sha1").update(directory).digest("hex").slice(0, 16).toUpperCase()}`,
    secretAccessKey: "test/secret+KEY/" + path.basename(directory),
  };
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const secrets = new Map([[credentials.accessKeyId, credentials.secretAccessKey]]);
  const scripted: ScriptedAnswer[] = [];
  const puts: ReceivedPut[] = [];
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name })),
  });
  // In front of s3rver's own middleware (its logger stays first): Koa composes the list at listen.
  server.middleware.splice(1, 0, async (ctx: KoaContext, next: () => Promise<void>) => {
    const put =
      ctx.method === "PUT" ? { path: ctx.req.url ?? "", headers: ctx.req.headers as Record<string, string>, bytes: 0, status: 0 } : null;
    if (put) puts.push(put);
    try {
      const body = ctx.method === "PUT" || ctx.method === "POST" ? await readAll(ctx.req) : Buffer.alloc(0);
      if (put) put.bytes = body.length;
      const script = scripted.shift();
      if (script) return answer(ctx, script.status, script.code, script.message, script.headers);
      const problem = ctx.req.headers.authorization ? await signatureProblem(ctx, secrets) : null;
      if (problem === "mismatch")
        return answer(
          ctx,
          403,
          "SignatureDoesNotMatch",
          "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
        );
      if (problem) return answer(ctx, 400, "AuthorizationHeaderMalformed", "The authorization header is malformed.");
      const declared = String(ctx.req.headers["x-amz-content-sha256"] ?? "");
      if (declared && /^[0-9a-f]{64}$/.test(declared) && declared !== createHash("sha256").update(body).digest("hex"))
        return answer(
          ctx,
          400,
          "XAmzContentSHA256Mismatch",
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        );
      const md5 = ctx.req.headers["content-md5"] as string | undefined;
      if (md5 && md5 !== createHash("md5").update(body).digest("base64"))
        return answer(ctx, 400, "BadDigest", "The Content-MD5 you specified did not match what we received.");
      const original = ctx.req;
      ctx.req = Object.assign(Readable.from([body]), { headers: original.headers, method: original.method, url: original.url }) as never;
      await next();
    } finally {
      if (put) put.status = ctx.status;
    }
  });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const region = options.region ?? "us-east-1";
  const client = new S3Client({ endpoint, region, credentials, forcePathStyle: true });
  return {
    endpoint,
    region,
    credentials,
    client,
    puts,
    failNext(script, times = 1) {
      for (let i = 0; i < times; i++) scripted.push(script);
    },
    async keys(bucket, prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async get(bucket, key) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const body = Buffer.from(await object.Body!.transformToByteArray());
      return { body, text: gunzipSync(body).toString("utf8"), metadata: object.Metadata ?? {}, contentType: object.ContentType };
    },
    async close() {
      client.destroy();
      const http = (server as unknown as { httpServer: Server }).httpServer;
      http.closeAllConnections();
      await server.close();
      AWSAccount.DUMMY_ACCOUNT.revokeAccessKey(credentials.accessKeyId);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
