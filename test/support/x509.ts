/**
 * Self-signed X.509 certificates made at test time, so the SAML IdP's keys exist only in memory.
 * node:crypto reads certificates but cannot write them, and no certificate builder is installed:
 * this encodes the few DER structures of an RSA/SHA-256 v3 certificate and signs them with
 * node:crypto. The result is checked with X509Certificate before it is returned.
 */
import { X509Certificate, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : n < 0x10000 ? Buffer.from([0x82, n >> 8, n & 0xff]) : null;
  if (!length) throw new Error("DER element too long for this encoder");
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));
/** A positive INTEGER in its minimal form (DER refuses redundant leading zero bytes). */
function integer(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const minimal = value.subarray(start);
  return der(0x02, minimal[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}
const utf8 = (value: string) => der(0x0c, Buffer.from(value, "utf8"));
const bitString = (value: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), value]));
const NULL = Buffer.from([0x05, 0x00]);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [a! * 40 + b!];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14); // YYYYMMDDHHMMSS
  // RFC 5280: UTCTime through 2049, GeneralizedTime after.
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der(0x18, Buffer.from(`${iso}Z`));
}

const SHA256_WITH_RSA = sequence(oid("1.2.840.113549.1.1.11"), NULL);
const commonName = (cn: string) => sequence(set(sequence(oid("2.5.4.3"), utf8(cn))));

export interface KeyAndCertificate {
  privateKey: KeyObject;
  privateKeyPem: string;
  certificatePem: string;
  /** The certificate's DER, base64 without line breaks (what metadata's X509Certificate holds). */
  certificateBase64: string;
}

export function selfSignedCertificate(cn: string, options: { notBefore?: Date; notAfter?: Date } = {}): KeyAndCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const notBefore = options.notBefore ?? new Date(Date.now() - 60 * 60 * 1000);
  const notAfter = options.notAfter ?? new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  const serial = randomBytes(16);
  const tbs = sequence(
    der(0xa0, integer(Buffer.from([2]))), // v3
    integer(serial),
    SHA256_WITH_RSA,
    commonName(cn),
    sequence(time(notBefore), time(notAfter)),
    commonName(cn),
    publicKey.export({ type: "spki", format: "der" }),
  );
  const certificate = sequence(tbs, SHA256_WITH_RSA, bitString(sign("sha256", tbs, privateKey)));
  const certificateBase64 = certificate.toString("base64");
  const certificatePem = `-----BEGIN CERTIFICATE-----\n${certificateBase64.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
  if (!new X509Certificate(certificatePem).verify(publicKey)) throw new Error("the generated certificate does not verify");
  return {
    privateKey,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    certificatePem,
    certificateBase64,
  };
}
