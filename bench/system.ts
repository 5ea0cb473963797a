/**
 * What the machine is, and where its CPU went during a measurement: the server under test, its
 * Postgres backends, the load generator (this process), and everything else on the machine
 * (other people's builds and tests share it; that share is reported so noisy runs are visible).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

export interface Machine {
  nproc: number;
  memTotalGiB: number;
  cpuModel: string;
  node: string;
  postgres: string;
  kernel: string;
}

export function machine(postgresVersion: string): Machine {
  const meminfo = readFileSync("/proc/meminfo", "utf8");
  const memKiB = Number(/^MemTotal:\s+(\d+)/m.exec(meminfo)?.[1] ?? "0");
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  return {
    nproc: Number(execFileSync("nproc", { encoding: "utf8" }).trim()),
    memTotalGiB: Math.round((memKiB / 1024 / 1024) * 10) / 10,
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown",
    node: process.version,
    postgres: postgresVersion,
    kernel: os.release(),
  };
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system, all threads) a process has used so far; 0 if it is gone. */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds of the whole machine so far (all cores): busy, and stolen by the hypervisor. */
function machineSeconds(): { busy: number; steal: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND, steal: steal! / TICKS_PER_SECOND };
}

/** `root` and every process under it (a cluster's workers), from /proc. */
export function processTree(root: number): number[] {
  const children = (pid: number): number[] => {
    try {
      return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
        try {
          return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number);
        } catch {
          return [];
        }
      });
    } catch {
      return [];
    }
  };
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i]!));
  return all;
}

export interface CpuSample {
  at: number;
  machine: number;
  steal: number;
  server: number;
  database: Map<number, number>;
  self: number;
}

export interface CpuUsage {
  /** CPU seconds used per wall second (1.0 = one core busy). */
  serverCores: number;
  databaseCores: number;
  loadGeneratorCores: number;
  /** Everything else on the machine (other people's processes, Postgres housekeeping). */
  otherCores: number;
  /** Time the hypervisor ran someone else while this machine wanted the CPU. */
  stealCores: number;
  /** CPU seconds spent on each request, in ms. */
  serverMsPerRequest: number;
  databaseMsPerRequest: number;
}

export function sampleCpu(serverPid: number, databasePids: number[]): CpuSample {
  const usage = process.cpuUsage();
  const { busy, steal } = machineSeconds();
  return {
    at: performance.now(),
    machine: busy,
    steal,
    server: processCpuSeconds(serverPid),
    database: new Map(databasePids.map((pid) => [pid, processCpuSeconds(pid)])),
    self: (usage.user + usage.system) / 1e6,
  };
}

/**
 * Usage between two samples. Backends only seen at the end count from zero (they started
 * within); backends gone by the end (idle connections of the other server's pool timing out)
 * are left out: their last reading is lost with them, and idle they used next to nothing.
 */
export function cpuBetween(start: CpuSample, end: CpuSample, requests: number): CpuUsage {
  const wall = (end.at - start.at) / 1000;
  const server = end.server - start.server;
  let database = 0;
  for (const [pid, seconds] of end.database) {
    if (seconds > 0) database += seconds - (start.database.get(pid) ?? 0);
  }
  const self = end.self - start.self;
  const other = Math.max(0, end.machine - start.machine - server - database - self);
  const perRequest = (seconds: number) => (requests > 0 ? (seconds * 1000) / requests : 0);
  return {
    serverCores: server / wall,
    databaseCores: database / wall,
    loadGeneratorCores: self / wall,
    otherCores: other / wall,
    stealCores: (end.steal - start.steal) / wall,
    serverMsPerRequest: perRequest(server),
    databaseMsPerRequest: perRequest(database),
  };
}
