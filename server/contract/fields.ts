/**
 * Field schemas the domain schemas share (pure: the console uses them too).
 * JsonBoolean: trpc-to-openapi's REST handler switches on zod coercion for every number/boolean
 * in an input (query and body alike), so a body's `"enabled": "false"` would pass z.boolean() as
 * true. Literal unions are not coerced.
 */
import { z } from "zod";
import { TENANT_ROLES } from "../auth/principal.ts";

export const JsonBoolean = z.literal([true, false], { error: "must be true or false" });

/*
 * Text the database stores exactly as sent. Postgres refuses NUL in text and jsonb (a 500 if it
 * gets that far), and a lone UTF-16 surrogate ("x\ud800y" in JSON) has no UTF-8 form, so the
 * driver would store U+FFFD instead: silently changed data. Both are a 400 naming the field.
 * Pure, so schemas, the console and the REST edge can all use it.
 */

// With the u flag a character class only matches surrogates that are not part of a pair.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const NUL_MESSAGE = "must not contain NUL (\\u0000) characters";
const SURROGATE_MESSAGE = "must be valid Unicode (no unpaired surrogate code points)";

/** Why `value` cannot be stored as text, or null when it can. */
export function textProblem(value: string): string | null {
  if (value.includes("\u0000")) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  return null;
}

/** A string schema that refuses what textProblem refuses. */
export function text(options?: { error?: string }) {
  return z.string(options).check((ctx) => {
    const problem = textProblem(ctx.value);
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  });
}

export interface BadText {
  /** Dotted path of the field ("name", "details.note", "domains.0"); "" for the whole value. */
  path: string;
  message: string;
}

/**
 * How deep a JSON input may nest. Nothing the API takes comes near it (audit `details` are the
 * deepest, a few levels); a body thousands of levels deep only exists to exhaust the stack of
 * whatever walks it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The first string anywhere in `value` (object keys included) that cannot be stored as text, or
 * the first place it nests deeper than MAX_JSON_DEPTH. Inputs are JSON, so plain objects and
 * arrays are all there is to walk.
 */
export function findBadText(value: unknown, path: string[] = []): BadText | null {
  if (typeof value === "string") {
    const message = textProblem(value);
    return message ? { path: path.join("."), message } : null;
  }
  if (!value || typeof value !== "object") return null;
  if (path.length >= MAX_JSON_DEPTH) return { path: path.join("."), message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return { path: path.join("."), message: `keys ${keyProblem}` };
    const found = findBadText(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

export const NOT_UTF8 = "is not valid UTF-8 (percent-encoded bytes must be UTF-8)";

export type QueryText = { ok: true; pairs: [name: string, value: string][] } | { ok: false; name: string; problem: string };

/**
 * A query string (`?a=1&b=2`, as in a URL's `search`) decoded as text, or the first parameter whose
 * name or value cannot be stored as text: percent-escapes that are not UTF-8, NUL, lone
 * surrogates (`name` is the parameter's, or `query` when the name itself is bad).
 */
export function decodeQueryText(search: string): QueryText {
  const pairs: [string, string][] = [];
  for (const pair of search.replace(/^\?/, "").split("&")) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    const [rawName, rawValue] = at === -1 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    const name = decodePercent(rawName.replace(/\+/g, " "));
    const nameProblem = name === null ? NOT_UTF8 : textProblem(name);
    if (nameProblem) return { ok: false, name: "query", problem: `a parameter name ${nameProblem}` };
    const value = decodePercent(rawValue.replace(/\+/g, " "));
    const problem = value === null ? NOT_UTF8 : textProblem(value);
    if (problem) return { ok: false, name: name!, problem };
    pairs.push([name!, value!]);
  }
  return { ok: true, pairs };
}

/** Strict UTF-8: bytes that are not UTF-8 (overlong forms, encoded surrogates, stray bytes) throw. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** decodeURIComponent that answers null for escapes that are not UTF-8 (e.g. %FF, %ED%A0%80). */
export function decodePercent(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * An IPv4 client as people write it: a dual-stack socket reports `::ffff:203.0.113.7` for
 * `203.0.113.7`. Other addresses (and null) are returned as they are.
 */
export function plainIp<T extends string | null>(ip: T): T {
  const mapped = ip === null ? null : IPV4_MAPPED.exec(ip);
  return (mapped ? mapped[1] : ip) as T;
}

/*
 * A person's fields, wherever one is named: an account (sign-up, password reset, platform users),
 * a member, an invitation.
 */

export const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 200;
export const MAX_PERSON_NAME_LENGTH = 100;

export const Email = z
  .email({ error: "must be an email address" })
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .transform((e) => e.trim().toLowerCase());

export const Password = text({ error: "must be a string" })
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const PersonName = text()
  .trim()
  .min(1, "must not be empty")
  .max(MAX_PERSON_NAME_LENGTH, `must be at most ${MAX_PERSON_NAME_LENGTH} characters`);

export const TenantRoleSchema = z.enum(TENANT_ROLES, { error: "must be admin or viewer" });
