/**
 * Starts and stops app instances in child processes: test/support/api-process.ts (the REST edge),
 * or test/support/app-instance.ts (the production server, in a cluster with WEB_CONCURRENCY).
 */
import { spawn, type ChildProcess } from "node:child_process";

export interface Instance {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
  /** What the instance wrote to stderr so far (for a failing test's message). */
  stderr(): string;
}

/** `listeners`: how many processes must say they listen (a cluster's workers each do). */
export async function startInstance(env: Record<string, string>, script = "test/support/api-process.ts", listeners = 1): Promise<Instance> {
  // node --import tsx: one process, so the kill reaches the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "--import", "./scripts/server-only.mjs", script], {
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
      const printed = out
        .split("\n")
        .filter((l) => /^\{"(url|port)":/.test(l))
        .map((l) => JSON.parse(l) as { url?: string; port?: number });
      if (printed.length >= listeners) resolve(printed[0]!.url ?? `http://127.0.0.1:${printed[0]!.port}`);
    });
    child.on("exit", (code) => reject(new Error(`instance exited (${code}) before listening: ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
