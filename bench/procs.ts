/** Child servers for the benchmark: start, wait until they answer, stop (by PID, never by name). */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  /** The last lines the process printed, for the error message when something fails. */
  output(): string;
}

/** BENCH_PORTS ("34400-34499"): take ports from this range only (a machine shared by several benches). */
const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? "");
let nextInRange = range ? Number(range[1]) : 0;

export async function freePort(): Promise<number> {
  if (!range) return listenOn(0);
  while (nextInRange <= Number(range[2])) {
    const port = await listenOn(nextInRange++).catch(() => null);
    if (port) return port;
  }
  throw new Error(`no free port left in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

function listenOn(wanted: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(wanted, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function startServer(name: string, url: string, command: string, args: string[], env: NodeJS.ProcessEnv): Server {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  return { name, url, child, output: () => lines.map((line) => `  [${name}] ${line}`).join("\n") };
}

/** Polls `url` until it answers 200; fails if the process exits first or after `timeoutMs`. */
export async function waitReady(server: Server, url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(
        `${server.name} exited (${server.child.exitCode ?? server.child.signalCode}) before it was ready:\n${server.output()}`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${server.output()}`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopServer(server: Server, graceMs = 5_000): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
