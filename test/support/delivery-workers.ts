/**
 * Delivering processes for the webhook durability, scale-out and pace tests (each runs
 * test/support/webhook-worker.ts against DATABASE_URL), and a webhook to a local receiver.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createTenant, db } from "./fixtures.ts";
import { encryptSecret } from "../../server/secrets/encryption.ts";

export interface Worker {
  child: ChildProcess;
  /** Its exit code and the lines it printed (the last: its summary as JSON). */
  done: Promise<{ code: number | null; lines: string[] }>;
}

/** Starts a worker with `args` (`--lease-ms N`, `--start-at <epoch ms>`). */
export function startWorker(args: string[]): Worker {
  // node --import tsx: one process (the tsx binary would run the script in a grandchild, out of reach of kill).
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", "./scripts/server-only.mjs", "test/support/webhook-worker.ts", ...args],
    { env: process.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<{ code: number | null; lines: string[] }>((resolve) =>
    child.on("exit", (code) => {
      if (code && code !== 0) console.error(err);
      resolve({ code, lines: out.trim().split("\n").filter(Boolean) });
    }),
  );
  return { child, done };
}

/** A new tenant with one webhook subscribed to everything, to `url`; `settings` as the model takes them. */
export async function webhookTo(url: string, settings: { rateLimitPerSecond?: number; ordering?: string } = {}) {
  const tenant = await createTenant();
  const webhook = await (
    await db()
  ).webhook.create({
    data: {
      tenantId: tenant.id,
      url,
      events: ["*"],
      secretCiphertext: encryptSecret("delivery-secret-0123456789"),
      secretHint: "6789",
      ...settings,
    },
  });
  return { tenant, webhook };
}
