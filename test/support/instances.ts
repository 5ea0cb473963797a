/** Starts and stops app instances in child processes (test/support/api-process.ts). */
import { spawn, type ChildProcess } from "node:child_process";

export interface Instance {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startInstance(env: Record<string, string>): Promise<Instance> {
  // node --import tsx: one process, so the kill reaches the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "--import", "./scripts/server-only.mjs", "test/support/api-process.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on("exit", (code) => reject(new Error(`instance exited (${code}) before listening: ${err}`)));
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
