/**
 * The S3 sink's pure parts: SigV4 against AWS's published example and against the AWS SDK's own
 * signer, the object key and URL, and where the digest goes when it would not fit S3's metadata.
 */
import { describe, expect, test } from "vitest";
import { SignatureV4 } from "@smithy/signature-v4";
import { NodeSha256 } from "../support/s3-server.ts";
import { encodePath, sha256Hex, signRequest } from "../../server/log-streams/sinks/sigv4.ts";
import { objectContent, objectKey, objectUrl, s3Error, USER_METADATA_LIMIT } from "../../server/log-streams/sinks/s3.ts";
import type { StreamBatch } from "../../server/log-streams/sinks/types.ts";
import type { AuditEvent } from "../../server/audit/schemas.ts";
import type { AuditDigest } from "../../server/audit/digest-schemas.ts";

const EXAMPLE = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };

describe("SigV4", () => {
  test("signs AWS's documented example (GET /test.txt with a Range) to its published signature", () => {
    const headers = signRequest(
      {
        method: "GET",
        path: "/test.txt",
        headers: { host: "examplebucket.s3.amazonaws.com", range: "bytes=0-9" },
        payloadHash: sha256Hex(""),
        region: "us-east-1",
        service: "s3",
        date: new Date("2013-05-24T00:00:00Z"),
      },
      EXAMPLE,
    );
    expect(headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
    expect(headers["x-amz-content-sha256"]).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  test("agrees with the AWS SDK's signer on a PutObject with metadata and a key S3 must escape", async () => {
    const body = Buffer.from("x".repeat(100));
    const date = new Date("2026-11-27T10:11:12Z");
    const path = `/bucket/${encodePath("p!re(fix)/t'*en ant/2026/11/27/1-10.ndjson.gz")}`;
    const headers = {
      host: "127.0.0.1:9000",
      "content-type": "application/gzip",
      "content-length": "100",
      "x-amz-meta-digest": "  eyJ.a  b.c  ",
      "x-amz-meta-from-sequence": "1",
    };
    const ours = signRequest(
      { method: "PUT", path, headers, payloadHash: sha256Hex(body), region: "eu-west-3", service: "s3", date },
      EXAMPLE,
    );
    const sdk = await new SignatureV4({
      credentials: EXAMPLE,
      region: "eu-west-3",
      service: "s3",
      sha256: NodeSha256,
      uriEscapePath: false,
    }).sign(
      {
        method: "PUT",
        protocol: "http:",
        hostname: "127.0.0.1",
        port: 9000,
        path,
        query: {},
        headers: { ...headers, "x-amz-content-sha256": sha256Hex(body) },
        body,
      },
      { signingDate: date },
    );
    expect(ours.authorization).toBe(sdk.headers.authorization);
    expect(path).toBe("/bucket/p%21re%28fix%29/t%27%2Aen%20ant/2026/11/27/1-10.ndjson.gz");
  });
});

const event = (sequence: number, timestamp: string) => ({ sequence, timestamp }) as AuditEvent;
const batch = (over: Partial<StreamBatch> = {}): StreamBatch => ({
  stream_id: "s",
  tenant_id: "t1",
  from_sequence: 41,
  to_sequence: 42,
  events: [event(41, "2026-01-31T23:59:59.999Z"), event(42, "2026-02-01T00:00:00.000Z")],
  digest: null,
  test: false,
  ...over,
});

describe("the object", () => {
  test("is dated by its first event in UTC, so a resend a day later keeps its key", () => {
    expect(objectKey("lake/audit", batch(), new Date("2026-03-05T00:00:00Z"))).toBe("lake/audit/t1/2026/01/31/41-42.ndjson.gz");
    expect(objectKey(undefined, batch())).toBe("t1/2026/01/31/41-42.ndjson.gz");
    expect(objectKey("", batch({ test: true }), new Date("2026-03-05T01:02:03.004Z"))).toBe("t1/_test/2026-03-05T01:02:03.004Z.ndjson.gz");
  });

  test("goes to AWS's regional endpoint, virtual-hosted unless told otherwise, the endpoint is an IP or the bucket has a dot", () => {
    const base = { bucket: "acme-logs", region: "eu-west-3", access_key_id: "a", secret_access_key: "s" };
    expect(objectUrl(base, "t1/a b.gz")).toEqual({
      url: "https://acme-logs.s3.eu-west-3.amazonaws.com/t1/a%20b.gz",
      host: "acme-logs.s3.eu-west-3.amazonaws.com",
      path: "/t1/a%20b.gz",
    });
    expect(objectUrl({ ...base, bucket: "logs.acme.com" }, "k").url).toBe("https://s3.eu-west-3.amazonaws.com/logs.acme.com/k");
    expect(objectUrl({ ...base, endpoint: "http://10.0.0.5:9000" }, "k").url).toBe("http://10.0.0.5:9000/acme-logs/k");
    expect(objectUrl({ ...base, endpoint: "http://[fd00::5]:9000" }, "k").url).toBe("http://[fd00::5]:9000/acme-logs/k");
    expect(objectUrl({ ...base, bucket: "logs.acme.com", path_style: false }, "k").url).toBe(
      "https://logs.acme.com.s3.eu-west-3.amazonaws.com/k",
    );
    expect(objectUrl({ ...base, endpoint: "https://minio.acme.test:9000/s3/", path_style: true }, "t1/x.gz")).toEqual({
      url: "https://minio.acme.test:9000/s3/acme-logs/t1/x.gz",
      host: "minio.acme.test:9000",
      path: "/s3/acme-logs/t1/x.gz",
    });
  });

  test("carries the digest's JWS in its metadata, or as a last NDJSON line when that would pass S3's 2 KB", () => {
    const digest = { jws: "h.p.s", to_sequence: 40 } as AuditDigest;
    const small = objectContent(batch({ digest }));
    expect(small.metadata["x-amz-meta-digest"]).toBe("h.p.s");
    expect(small.ndjson.trimEnd().split("\n")).toHaveLength(2);

    const huge = { ...digest, jws: "j".repeat(USER_METADATA_LIMIT) };
    const big = objectContent(batch({ digest: huge }));
    expect(big.metadata["x-amz-meta-digest"]).toBeUndefined();
    expect(big.metadata["x-amz-meta-digest-in-body"]).toBe("true");
    expect(JSON.parse(big.ndjson.trimEnd().split("\n").at(-1)!)).toEqual({ type: "digest", ...huge });
  });

  test("reads S3's XML error as Code: Message", () => {
    expect(s3Error("<Error><Code>AccessDenied</Code><Message>Access &quot;Denied&quot;</Message></Error>")).toBe(
      'AccessDenied: Access "Denied"',
    );
    expect(s3Error("not xml")).toBeNull();
  });
});
