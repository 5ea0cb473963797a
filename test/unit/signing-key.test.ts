/** AUDIT_SIGNING_KEY's format, checked where the secrets are read (server/secrets/store.ts). */
import { generateKeyPairSync } from "node:crypto";
import { expect, test } from "vitest";
import { EnvError } from "../../server/env.ts";
import { checkedSigningKey } from "../../server/secrets/store.ts";

test.each([
  ["not a key", "not a key"],
  ["a P-256 key", generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" }).toString()],
])("a bad AUDIT_SIGNING_KEY stops start-up with one line naming it: %s", (_, value) => {
  let error: unknown;
  try {
    checkedSigningKey(value);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(EnvError);
  const message = (error as Error).message;
  expect(message).toContain("AUDIT_SIGNING_KEY");
  expect(message.split("\n")).toHaveLength(1);
});

test("AUDIT_SIGNING_KEY takes an Ed25519 PKCS#8 PEM (newlines as \\n too) or a private JWK, plain or base64", () => {
  const key = generateKeyPairSync("ed25519").privateKey;
  const pem = key.export({ format: "pem", type: "pkcs8" }).toString();
  const jwk = JSON.stringify(key.export({ format: "jwk" }));
  for (const value of [pem, pem.replace(/\n/g, "\\n"), jwk, Buffer.from(jwk).toString("base64"), Buffer.from(jwk).toString("base64url")]) {
    expect(checkedSigningKey(value)).toBe(value);
  }
});
