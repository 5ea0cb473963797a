/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went, by package: bundled
 * code (.next-bench chunks) is traced back to its original file through the build's source
 * maps, so Next's bundle splits into trpc, zod, the app's own modules, and so on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

// --- source maps ------------------------------------------------------------------------------

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** Per generated line: [generatedColumn, sourceIndex] pairs, sorted by column. */
type Lines = Array<Array<[number, number]>>;

function decodeMappings(mappings: string): Lines {
  const lines: Lines = [];
  let source = 0;
  for (const line of mappings.split(";")) {
    const segments: Array<[number, number]> = [];
    let column = 0;
    for (const segment of line.split(",")) {
      if (!segment) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = DIGIT.get(char)!;
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0]!;
      if (values.length >= 4) {
        source += values[1]!;
        segments.push([column, source]);
      }
      // Line, column and name deltas are not needed to name the source file.
    }
    lines.push(segments);
  }
  return lines;
}

interface RawMap {
  sources?: string[];
  mappings?: string;
  sections?: Array<{ offset: { line: number; column: number }; map: RawMap }>;
}

interface Lookup {
  (line: number, column: number): string | null;
}

function mapLookup(raw: RawMap): Lookup {
  if (raw.sections) {
    const sections = raw.sections.map((s) => ({ ...s.offset, lookup: mapLookup(s.map) }));
    return (line, column) => {
      let hit: (typeof sections)[number] | undefined;
      for (const s of sections) {
        if (s.line < line || (s.line === line && s.column <= column)) hit = s;
        else break;
      }
      return hit ? hit.lookup(line - hit.line, hit.line === line ? column - hit.column : column) : null;
    };
  }
  const lines = decodeMappings(raw.mappings ?? "");
  const sources = raw.sources ?? [];
  return (line, column) => {
    const segments = lines[line];
    if (!segments?.length) return null;
    let lo = 0;
    let hi = segments.length - 1;
    if (segments[0]![0] > column) return sources[segments[0]![1]] ?? null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segments[mid]![0] <= column) lo = mid;
      else hi = mid - 1;
    }
    return sources[segments[lo]![1]] ?? null;
  };
}

const lookups = new Map<string, Lookup | null>();

function originalSource(frame: CallFrame): string | null {
  if (!frame.url.startsWith("file://") || !frame.url.includes("/.next-bench/")) return null;
  let lookup = lookups.get(frame.url);
  if (lookup === undefined) {
    const file = `${fileURLToPath(frame.url)}.map`;
    lookup = existsSync(file) ? mapLookup(JSON.parse(readFileSync(file, "utf8")) as RawMap) : null;
    lookups.set(frame.url, lookup);
  }
  return lookup ? lookup(frame.lineNumber, frame.columnNumber) : null;
}

// --- categories -------------------------------------------------------------------------------

/** A readable owner for a file: a package name, a node:internal area, or the app's own folder. */
function ownerOf(file: string): string {
  const pkg = /node_modules\/((?:@|%40)[^/]+\/[^/]+|[^/]+)\/(.*)$/.exec(file);
  if (pkg) {
    const name = pkg[1]!.replace("%40", "@");
    if (name === "next") {
      const area = /^dist\/(?:compiled\/)?([^/]+(?:\/[^/]+)?)/.exec(pkg[2]!)?.[1] ?? "";
      return `next (${area.replace(/\.js$/, "")})`;
    }
    return name;
  }
  if (file.startsWith("node:")) {
    if (/webstreams/.test(file)) return "node: web streams";
    if (/async_hooks|async_context/.test(file)) return "node: async_hooks (AsyncLocalStorage)";
    if (/undici|fetch/.test(file)) return "node: undici (Request/Response/Headers)";
    if (/^node:(net|_http|http|internal\/(streams|stream_base|http|net))/.test(file)) return "node: http/net/streams";
    if (/modules|vm|loader/.test(file)) return "node: module loader";
    if (/task_queues|promise/.test(file)) return "node: promise jobs / microtasks";
    return `node: ${file.replace(/^node:(internal\/)?/, "")}`;
  }
  const own = /(?:^|\/)(server\/db\/generated|server\/[^/]+|app|components|instrumentation|proxy)/.exec(file);
  if (own) return own[1] === "server/db/generated" ? "@prisma/client (generated client)" : `app: ${own[1]}`;
  if (file.includes("[turbopack]") || file.includes("turbopack")) return "next (turbopack runtime)";
  return file.slice(-60);
}

function ownerOfFrame(frame: CallFrame): string | null {
  if (!frame.url) return null;
  if (frame.url.startsWith("wasm://")) return "wasm (Prisma query compiler)";
  const source = originalSource(frame);
  if (source) return ownerOf(source.replace(/^(\.\.\/)+/, ""));
  if (frame.url.startsWith("file://")) return ownerOf(fileURLToPath(frame.url));
  return ownerOf(frame.url);
}

export interface ProfileSummary {
  /** Sampled milliseconds in the window. */
  windowMs: number;
  /** Share of the window by owner of the running code (native frames count for their JS caller). */
  byOwner: Array<{ owner: string; share: number }>;
  /** Share of the window with the owner's code anywhere on the (synchronous) stack. */
  byOwnerInclusive: Array<{ owner: string; share: number }>;
  byFunction: Array<{ fn: string; share: number }>;
}

/**
 * Summarizes the samples between `fromEndUs` and `toEndUs` before the profile's end (the load
 * window, in microseconds counted back from when the process stopped profiling).
 */
export function summarizeProfile(file: string, window?: { fromEndUs: number; toEndUs: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const from = window ? profile.endTime - window.fromEndUs : -Infinity;
  const to = window ? profile.endTime - window.toEndUs : Infinity;
  const time = new Map<number, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < from || t > to) continue;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    time.set(profile.samples[i]!, (time.get(profile.samples[i]!) ?? 0) + dt);
    total += dt;
  }

  const owners = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  const special = new Set(["(garbage collector)", "(idle)", "(program)", "(root)"]);
  for (const [id, dt] of time) {
    const node = nodes.get(id)!;
    const name = node.callFrame.functionName;
    let owner: string | null = special.has(name) ? name : null;
    for (let at: number | undefined = id; owner === null && at !== undefined; at = parent.get(at)) {
      owner = ownerOfFrame(nodes.get(at)!.callFrame);
    }
    owner ??= "(native, no JS caller)";
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const o = ownerOfFrame(nodes.get(at)!.callFrame);
      if (o) onStack.add(o);
    }
    for (const o of onStack) inclusive.set(o, (inclusive.get(o) ?? 0) + dt);
    owners.set(owner, (owners.get(owner) ?? 0) + dt);
    const fn = `${name || "(anonymous)"} — ${ownerOfFrame(node.callFrame) ?? "native"}`;
    functions.set(fn, (functions.get(fn) ?? 0) + dt);
  }
  const ranked = <K extends string>(map: Map<string, number>, key: K) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([name, dt]) => ({ [key]: name, share: total ? dt / total : 0 }) as { [P in K]: string } & { share: number });
  return {
    windowMs: total / 1000,
    byOwner: ranked(owners, "owner"),
    byOwnerInclusive: ranked(inclusive, "owner"),
    byFunction: ranked(functions, "fn").slice(0, 25),
  };
}

/**
 * Prints the summary of every profile in `dir` (one per process) over the load's window: from
 * `loadStarted` to `loadEnded`, counted back from `stopped` (about when the processes stopped and
 * wrote their profiles). Epoch milliseconds.
 */
export function printProfiles(dir: string, times: { loadStarted: number; loadEnded: number; stopped: number }): void {
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`.padStart(6);
  for (const file of readdirSync(dir)) {
    const summary = summarizeProfile(path.join(dir, file), {
      fromEndUs: (times.stopped - times.loadStarted) * 1000,
      toEndUs: (times.stopped - times.loadEnded) * 1000,
    });
    console.log(`${file}: ${summary.windowMs.toFixed(0)} ms sampled`);
    for (const { owner, share } of summary.byOwner.slice(0, 25)) console.log(`  ${pct(share)}  ${owner}`);
    console.log("  inclusive:");
    for (const { owner, share } of summary.byOwnerInclusive.slice(0, 25)) console.log(`  ${pct(share)}  ${owner}`);
    console.log("  functions:");
    for (const { fn, share } of summary.byFunction) console.log(`  ${pct(share)}  ${fn}`);
  }
}
