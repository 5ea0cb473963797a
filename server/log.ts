/** Structured one-line logs. Never pass secrets (tokens, passwords, Authorization headers). */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { env } from "./env.ts";

const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
type Level = Exclude<(typeof LEVELS)[number], "silent">;

function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (LEVELS.indexOf(level) < LEVELS.indexOf(env().LOG_LEVEL)) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

export function errorFields(error: unknown): Record<string, unknown> {
  return error instanceof Error ? { error: error.message, stack: sourceStack(error.stack) } : { error: String(error) };
}

/**
 * The compiled server (dist/server, scripts/build-server.mjs) runs without `--enable-source-maps`:
 * that flag makes Node read and keep the map of every module that names one, Next's and every
 * package's with their sources inside, 60 MB of an instance's heap under load (BENCHMARKS.md,
 * Memory). So a logged stack is mapped here instead, when one is logged: a frame in a compiled file
 * of our own (a `.js` outside node_modules and Next's build with a `.js.map` beside it) is shown at
 * its TypeScript source. Each map is read once, on the first stack through it.
 */
const maps = new Map<string, SourceMap | null>();
const FRAME = /^(\s+at (?:.+ \()?)((?:file:\/\/)?\/[^():]+\.js):(\d+):(\d+)(\)?)$/;

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    const mapFile = `${file}.map`;
    map = null;
    if (!/[\\/](node_modules[\\/]|\.next[^\\/]*[\\/](server|static)[\\/])/.test(file) && existsSync(mapFile)) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")) as ConstructorParameters<typeof SourceMap>[0]);
      } catch {
        map = null;
      }
    }
    maps.set(file, map);
  }
  return map;
}

export function sourceStack(stack: string | undefined): string | undefined {
  if (!stack) return stack;
  return stack
    .split("\n")
    .map((line) => {
      const frame = FRAME.exec(line);
      if (!frame) return line;
      const [, head, location, row, column, tail] = frame as unknown as [string, string, string, string, string, string];
      const file = location.startsWith("file://") ? fileURLToPath(location) : location;
      const entry = mapOf(file)?.findEntry(Number(row) - 1, Number(column) - 1);
      if (!entry || !("originalSource" in entry) || !entry.originalSource) return line;
      const source = path.resolve(path.dirname(file), entry.originalSource.replace(/^file:\/\//, ""));
      return `${head}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${tail}`;
    })
    .join("\n");
}
