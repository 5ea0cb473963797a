/** Structured one-line logs. Never pass secrets (tokens, passwords, Authorization headers). */
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
  return error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
}
