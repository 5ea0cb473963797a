/**
 * What bench:memory reads of a server process: its resident memory (/proc), its V8 heap (the
 * prom-client default metrics of /api/metrics), and V8 heap snapshots written on SIGUSR2
 * (`--heapsnapshot-signal`), summed per constructor and compared between two of them.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const MiB = 1024 * 1024;

/** VmRSS and VmHWM (the peak) of one process, MiB; 0 when it is gone. */
export function residentMiB(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? "0");
    return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** A process's command line, arguments separated by spaces; "" when it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** `root` and every process under it, from /proc, root first. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

export interface HeapStats {
  /** V8 heap in use and reserved, and memory of objects outside it (Buffers, WASM), MiB. */
  used: number;
  total: number;
  external: number;
}

/** The server's own account of its heap (prom-client's nodejs_heap_* and nodejs_external_memory_bytes). */
export async function heapStats(url: string, metricsToken: string): Promise<HeapStats> {
  const response = await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (response.status !== 200) throw new Error(`GET /api/metrics: ${response.status}`);
  const text = await response.text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? "NaN") / MiB;
  return {
    used: value("nodejs_heap_size_used_bytes"),
    total: value("nodejs_heap_size_total_bytes"),
    external: value("nodejs_external_memory_bytes"),
  };
}

/**
 * Signals `pid` to write a heap snapshot into `dir` (its --diagnostic-dir) and answers the file.
 * V8 collects garbage before it walks the heap, and writes the file on the main thread: once the
 * server answers again (`ping`), the file is complete.
 */
export async function takeSnapshot(pid: number, dir: string, ping: () => Promise<unknown>): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 120_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const file = readdirSync(dir).find((name) => name.endsWith(".heapsnapshot") && !before.has(name));
    if (file) {
      await ping();
      return path.join(dir, file);
    }
    if (Date.now() > deadline) throw new Error(`no heap snapshot from ${pid} in ${dir} within 120 s`);
  }
}

/** Per constructor (objects) or kind (strings, arrays, code, …): how many, and their own size. */
export type HeapSummary = Map<string, { count: number; bytes: number }>;

interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Groups as DevTools' summary view names them: objects by constructor, the rest by kind. */
function groupOf(type: string, name: string): string {
  if (type === "object" || type === "native") return name;
  if (type === "string" || type === "concatenated string" || type === "sliced string") return "(string)";
  return `(${type})`;
}

/** Reads a snapshot file into its per-constructor summary, then deletes the file (they are large). */
export function summarizeSnapshot(file: string, keep = false): HeapSummary {
  const json = JSON.parse(readFileSync(file, "utf8")) as SnapshotJson;
  if (!keep) rmSync(file);
  const fields = json.snapshot.meta.node_fields;
  const [types] = json.snapshot.meta.node_types;
  const stride = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [number, number, number];
  const summary: HeapSummary = new Map();
  for (let i = 0; i < json.nodes.length; i += stride) {
    const group = groupOf(types[json.nodes[i + typeAt]!]!, json.strings[json.nodes[i + nameAt]!]!);
    const entry = summary.get(group) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += json.nodes[i + sizeAt]!;
    summary.set(group, entry);
  }
  return summary;
}

export interface HeapGrowth {
  group: string;
  countDelta: number;
  kibDelta: number;
}

/** What grew from `before` to `after`: the `top` groups by their own size's growth. */
export function heapGrowth(before: HeapSummary, after: HeapSummary, top = 8): HeapGrowth[] {
  const groups = new Set([...before.keys(), ...after.keys()]);
  return [...groups]
    .map((group) => {
      const a = before.get(group) ?? { count: 0, bytes: 0 };
      const b = after.get(group) ?? { count: 0, bytes: 0 };
      return { group, countDelta: b.count - a.count, kibDelta: (b.bytes - a.bytes) / 1024 };
    })
    .sort((x, y) => y.kibDelta - x.kibDelta)
    .slice(0, top);
}

/** The heap's total own size in a summary, MiB. */
export function summaryMiB(summary: HeapSummary): number {
  let bytes = 0;
  for (const { bytes: b } of summary.values()) bytes += b;
  return bytes / MiB;
}
