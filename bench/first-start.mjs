// `npm run bench:first-start`: what a newcomer waits for. Clones this checkout's HEAD into a
// temporary directory, runs `npm install` with an empty npm cache (as on a fresh machine: every
// package from the registry) and `npm start` on the embedded database, and times each until
// /api/health/ready answers; then a second start on the same clone. Not part of `npm test`: it
// needs the npm registry and takes minutes. Prints one table (markdown with --markdown).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const work = mkdtempSync(path.join(os.tmpdir(), "cp-first-start-"));
const clone = path.join(work, "clone");
const cache = path.join(work, "npm-cache");

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function run(command, args, env) {
  const started = performance.now();
  execFileSync(command, args, { cwd: clone, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  return (performance.now() - started) / 1000;
}

/** Seconds from `npm start` to a ready answer; the server is stopped (SIGTERM to its group) after. */
async function start(port) {
  const started = performance.now();
  const child = spawn("npm", ["start"], { cwd: clone, env: { ...process.env, PORT: String(port) }, stdio: "ignore", detached: true });
  let exited = false;
  child.on("exit", () => (exited = true));
  for (;;) {
    if (exited) throw new Error("npm start exited before it was ready");
    const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  process.kill(-child.pid, "SIGTERM");
  while (!exited) await new Promise((resolve) => setTimeout(resolve, 100));
  return seconds;
}

try {
  execFileSync("git", ["clone", "-q", process.cwd(), clone]);
  const env = { npm_config_cache: cache, npm_config_audit: "false", npm_config_fund: "false" };
  const install = run("npm", ["install"], env);
  const port = await freePort();
  const first = await start(port);
  const second = await start(port);
  const rows = [
    ["`npm install` (empty npm cache)", install],
    ["first `npm start` to ready (production build, migrations, demo operator)", first],
    ["both: a newcomer's wait", install + first],
    ["a later `npm start` to ready", second],
  ];
  const markdown = process.argv.includes("--markdown");
  console.log(markdown ? "| step | seconds |\n|---|---|" : "");
  for (const [step, seconds] of rows)
    console.log(markdown ? `| ${step} | ${seconds.toFixed(1)} |` : `${seconds.toFixed(1).padStart(7)} s  ${step}`);
  console.log(
    `\n${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "cpu"}, load ${os.loadavg()[0].toFixed(1)} at the end, ${new Date().toISOString()}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
