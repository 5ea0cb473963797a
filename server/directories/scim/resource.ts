/**
 * Stored rows as SCIM resources: the stored `resource` (canonical names, no id/meta) plus `id`,
 * `schemas`, the read-only `groups` of a User and `members` of a Group (both from the members
 * table), and `meta`. And `attributes`/`excludedAttributes` (RFC 7644 §3.4.2.5) on the answer.
 */
import type { DirectoryGroup as GroupRow, DirectoryUser as UserRow } from "../../db/generated/client.ts";
import { ScimError } from "./errors.ts";
import { ENTERPRISE_USER, GROUP_SCHEMA, USER_SCHEMA, type ResourceKind } from "./schema.ts";
import { versionTag } from "./respond.ts";

type Json = Record<string, unknown>;
export interface ScimMeta {
  resourceType: ResourceKind;
  created: string;
  lastModified: string;
  location: string;
  version: string;
}
export type ScimResource = Json & { id: string; schemas: string[]; meta: ScimMeta };
/** A member or group reference as SCIM shows it. */
export interface ScimRef {
  value: string;
  display: string;
  $ref: string;
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** `{origin}/api/scim/v2/{directory_id}`: every location is absolute from it. */
export const baseUrlOf = (origin: string, directoryId: string) => `${origin}/api/scim/v2/${directoryId}`;

/** The extension schemas a resource carries: URN-keyed objects (the enterprise extension). */
function schemasOf(core: string, resource: Json): string[] {
  const extensions = Object.keys(resource).filter((key) => key.startsWith("urn:") && isObject(resource[key]));
  return [core, ...extensions];
}

export function userResource(base: string, row: UserRow, groups: ScimRef[] | null): ScimResource {
  const stored = isObject(row.resource) ? row.resource : {};
  return {
    schemas: schemasOf(USER_SCHEMA, stored),
    id: row.id,
    ...stored,
    // The columns are the truth for what they copy (a PATCH of `active` keeps both in step).
    userName: row.userName,
    active: row.active,
    ...(groups ? { groups } : {}),
    meta: meta("User", `${base}/Users/${row.id}`, row),
  };
}

export function groupResource(base: string, row: GroupRow, members: ScimRef[] | null): ScimResource {
  const stored = isObject(row.resource) ? row.resource : {};
  return {
    schemas: schemasOf(GROUP_SCHEMA, stored),
    id: row.id,
    ...stored,
    displayName: row.displayName,
    ...(members ? { members } : {}),
    meta: meta("Group", `${base}/Groups/${row.id}`, row),
  };
}

function meta(resourceType: ResourceKind, location: string, row: { createdAt: Date; updatedAt: Date; version: number }): ScimMeta {
  return {
    resourceType,
    created: row.createdAt.toISOString(),
    lastModified: row.updatedAt.toISOString(),
    location,
    version: versionTag(row.version),
  };
}

/** Returned whatever `attributes` says (RFC 7643 §7 "returned: always"). */
const ALWAYS = new Set(["id", "schemas", "meta"]);

export interface Projection {
  attributes: string[] | null;
  excluded: string[];
}

/**
 * `attributes=userName,emails` / `excludedAttributes=members`: comma-separated paths, any case,
 * sub-attributes (`name.givenName`), URN-qualified (`urn:…:User:department`, `urn:…:core:2.0:User:userName`);
 * a value filter (`emails[type eq "work"]`) selects the attribute whole.
 */
export function projectionOf(query: URLSearchParams, kind: ResourceKind): Projection {
  const list = (name: string) => {
    const given = query.get(name);
    if (given === null) return null;
    return given
      .split(",")
      .map((path) => unqualify(path.trim().replace(/\[.*?\]/g, ""), kind))
      .filter(Boolean);
  };
  return { attributes: list("attributes"), excluded: list("excludedAttributes") ?? [] };
}

/** A path as a list of lower-case steps: the core schema's URN prefix dropped, an extension's URN kept as one step. */
function unqualify(path: string, kind: ResourceKind): string {
  const core = (kind === "User" ? USER_SCHEMA : GROUP_SCHEMA).toLowerCase();
  const lower = path.toLowerCase();
  if (lower.startsWith(`${core}:`)) return lower.slice(core.length + 1);
  const extension = ENTERPRISE_USER.toLowerCase();
  if (lower.startsWith(`${extension}:`)) return `${extension}.${lower.slice(extension.length + 1)}`;
  return lower;
}

const splitPath = (path: string): string[] => {
  const extension = ENTERPRISE_USER.toLowerCase();
  if (path.startsWith(extension))
    return [
      extension,
      ...path
        .slice(extension.length + 1)
        .split(".")
        .filter(Boolean),
    ];
  return path.split(".");
};

/** The resource with only the asked attributes (and those always returned), or without the excluded ones. */
export function project(resource: ScimResource, projection: Projection): Json {
  if (projection.attributes) {
    const wanted = projection.attributes.map(splitPath);
    const out: Json = {};
    for (const [key, value] of Object.entries(resource)) {
      if (ALWAYS.has(key)) out[key] = value;
      else {
        const kept = keep(value, key, wanted);
        if (kept !== undefined) out[key] = kept;
      }
    }
    return out;
  }
  if (!projection.excluded.length) return resource;
  const dropped = projection.excluded.map(splitPath);
  return drop(resource, dropped) as Json;
}

function keep(value: unknown, key: string, wanted: string[][]): unknown {
  const lower = key.toLowerCase();
  const here = wanted.filter((path) => path[0] === lower);
  if (!here.length) return undefined;
  if (here.some((path) => path.length === 1)) return value;
  const rest = here.map((path) => path.slice(1));
  const pick = (item: unknown) => {
    if (!isObject(item)) return item;
    const out: Json = {};
    for (const [k, v] of Object.entries(item)) {
      const kept = keep(v, k, rest);
      if (kept !== undefined) out[k] = kept;
    }
    return out;
  };
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

function drop(value: unknown, dropped: string[][]): unknown {
  if (Array.isArray(value)) return value.map((item) => drop(item, dropped));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    const lower = key.toLowerCase();
    if (!ALWAYS.has(key) && dropped.some((path) => path.length === 1 && path[0] === lower)) continue;
    const rest = dropped.filter((path) => path.length > 1 && path[0] === lower).map((path) => path.slice(1));
    out[key] = rest.length ? drop(v, rest) : v;
  }
  return out;
}

/**
 * RFC 7644 §3.4.2.4: startIndex 1-based (less than 1 is 1), count ≥ 0 (default 100, at most
 * MAX_RESULTS). Either past ±Number.MAX_SAFE_INTEGER (2^53 − 1) is a 400: no database offset reaches it.
 */
export function pageOf(query: URLSearchParams, defaultCount: number, max: number): { startIndex: number; count: number } {
  const integer = (name: string, fallback: number) => {
    const given = query.get(name);
    if (given === null || given === "") return fallback;
    if (!/^-?\d+$/.test(given.trim())) throw new ScimError(400, "invalidValue", `${name} must be an integer`);
    const value = Number(given);
    if (!Number.isSafeInteger(value))
      throw new ScimError(
        400,
        "invalidValue",
        `${name} must be an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
      );
    return value;
  };
  return { startIndex: Math.max(1, integer("startIndex", 1)), count: Math.min(max, Math.max(0, integer("count", defaultCount))) };
}
