import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { parseSigningKey } from "../../server/secrets/signing-key.ts";

const run = promisify(execFile);

test("the embedded default generates AUDIT_SIGNING_KEY into DATA_DIR once, keeping the secrets already there", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cp-secrets-"));
  try {
    const file = path.join(dir, "secrets.json");
    writeFileSync(
      file,
      JSON.stringify({
        nextauthSecret: "kept-nextauth-secret-kept-nextauth-secret",
        encryptionKey: Buffer.alloc(32, 7).toString("base64"),
      }),
    );
    const script = path.join(dir, "print.mts");
    writeFileSync(
      script,
      `import { secrets } from ${JSON.stringify(path.resolve("server/secrets/store.ts"))};\nconsole.log(JSON.stringify(secrets()));\n`,
    );
    const env = { ...process.env, DATA_DIR: dir, AUDIT_SIGNING_KEY: "", NEXTAUTH_SECRET: "", ENCRYPTION_KEY: "", DATABASE_URL: "" };
    const secrets = async () =>
      JSON.parse((await run("node_modules/.bin/tsx", ["--import", "./scripts/server-only.mjs", script], { env })).stdout);

    const first = await secrets();
    expect(first.nextauthSecret).toBe("kept-nextauth-secret-kept-nextauth-secret");
    expect(parseSigningKey(first.auditSigningKey).privateKey.asymmetricKeyType).toBe("ed25519");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await secrets()).toEqual(first);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
