/**
 * What acted, in words: an event's actor is stored as an id (a user's uuid with their email,
 * `setup_link:<id>`, `directory:<id>`, an application's own id), which the console cut to
 * "setup_li…". For a page of events, one statement looks up every actor and appending token at
 * once (never one query per row): a setup link's intent and creator, a directory's, API token's
 * or SSO application's name, a user's email. Read when listed, so a renamed directory shows its
 * name now; never stored, never hashed.
 */
import type { SqlRunner } from "../db/sql.ts";
import { isUuid } from "../db/ids.ts";
import type { AuditEventRow } from "../events/types.ts";
import type { AuditEvent } from "./schemas.ts";

const INTENT_WORDS: Record<string, string> = {
  sso: "SSO",
  directory_sync: "Directory Sync",
  domain_verification: "domain verification",
};

/** The kinds of actor id this resolves (`<kind>:<uuid>`, or a bare uuid for a user). */
type ActorKind = "setup_link" | "directory" | "api_token" | "application" | "user";
const PREFIXES: Record<string, ActorKind> = {
  setup_link: "setup_link",
  directory: "directory",
  token: "api_token",
  api_token: "api_token",
  application: "application",
};

/** An actor id as what to look up: its kind and uuid, or null when it names nothing of ours. */
export function actorRef(actorId: string | null): { kind: ActorKind; id: string } | null {
  if (!actorId) return null;
  const text: string = actorId;
  if (isUuid(actorId)) return { kind: "user", id: text };
  const colon = text.indexOf(":");
  const kind = colon > 0 ? PREFIXES[text.slice(0, colon)] : undefined;
  const id = text.slice(colon + 1);
  return kind && isUuid(id) ? { kind, id } : null;
}

/**
 * One row per thing found. Directories and setup links are looked up within the event's tenant
 * (`$n` pairs of ids and tenants), so another tenant's names never show; users, tokens and
 * applications by id (a user's email is what the event already records when it has one).
 */
const LOOKUP = `
  SELECT 'setup_link' AS kind, l.id::text AS id, l.tenant_id::text AS tenant_id, l.intent AS name,
         coalesce(l.created_by_email, u.email) AS extra
    FROM setup_links l LEFT JOIN users u ON u.id = l.created_by_id
    JOIN unnest($1::uuid[], $2::uuid[]) AS k(id, tenant_id) ON k.id = l.id AND k.tenant_id = l.tenant_id
  UNION ALL
  SELECT 'directory', d.id::text, d.tenant_id::text, d.name, NULL
    FROM directories d JOIN unnest($3::uuid[], $4::uuid[]) AS k(id, tenant_id) ON k.id = d.id AND k.tenant_id = d.tenant_id
  UNION ALL
  SELECT 'api_token', t.id::text, NULL, t.name, NULL FROM api_tokens t WHERE t.id = ANY($5::uuid[])
  UNION ALL
  SELECT 'application', a.id::text, NULL, a.name, NULL FROM sso_applications a WHERE a.id = ANY($6::uuid[])
  UNION ALL
  SELECT 'user', u.id::text, NULL, u.email, NULL FROM users u WHERE u.id = ANY($7::uuid[])`;

function words(kind: ActorKind, name: string, extra: string | null): string {
  switch (kind) {
    case "setup_link":
      return `${INTENT_WORDS[name] ?? name} setup link${extra ? ` by ${extra}` : ""}`;
    case "directory":
      return `Directory ${name}`;
    case "api_token":
      return `API token ${name}`;
    case "application":
      return `Application ${name}`;
    case "user":
      return name;
  }
}

/** When the thing is gone: what its id still says. */
const GONE: Record<ActorKind, string | null> = {
  setup_link: "Setup link (deleted)",
  directory: "Directory (deleted)",
  api_token: "API token (deleted)",
  application: "Application (deleted)",
  user: null,
};

/** Things that belong to one tenant: found only in the event's own (a page of the search spans tenants). */
const SCOPED: ReadonlySet<ActorKind> = new Set(["setup_link", "directory"]);
const keyOf = (kind: string, id: string, tenantId: string | null) => `${kind}:${id}:${tenantId ?? ""}`;

type Row = Pick<AuditEventRow, "tenant_id" | "actor_id" | "actor_email" | "source_type" | "source_token_id">;

/** The events with `actor.name` and `source_token_name` filled in, from one lookup for the page. */
export async function withActorNames<T extends AuditEvent>(sql: SqlRunner, rows: Row[], events: T[]): Promise<T[]> {
  const scoped = { setup_link: [[], []] as string[][], directory: [[], []] as string[][] };
  const byId = { api_token: new Set<string>(), application: new Set<string>(), user: new Set<string>() };
  for (const row of rows) {
    const ref = actorRef(row.actor_id);
    if (ref?.kind === "setup_link" || ref?.kind === "directory") {
      if (row.tenant_id) {
        scoped[ref.kind][0]!.push(ref.id);
        scoped[ref.kind][1]!.push(row.tenant_id);
      }
    } else if (ref && !(ref.kind === "user" && row.actor_email)) byId[ref.kind].add(ref.id);
    if (row.source_type === "api" && row.source_token_id && isUuid(row.source_token_id)) byId.api_token.add(row.source_token_id);
  }
  const wanted = scoped.setup_link[0]!.length + scoped.directory[0]!.length + byId.api_token.size + byId.application.size + byId.user.size;
  const found = new Map<string, { name: string; extra: string | null }>();
  if (wanted > 0) {
    const params = [...scoped.setup_link, ...scoped.directory, ...[byId.api_token, byId.application, byId.user].map((s) => [...s])];
    type Found = { kind: string; id: string; tenant_id: string | null; name: string; extra: string | null };
    for (const r of await sql.query<Found>(LOOKUP, params)) found.set(keyOf(r.kind, r.id, r.tenant_id), { name: r.name, extra: r.extra });
  }
  return events.map((event, i) => {
    const row = rows[i]!;
    const ref = actorRef(row.actor_id);
    let name: string | null = null;
    if (ref?.kind === "user") name = row.actor_email ?? found.get(keyOf("user", ref.id, null))?.name ?? null;
    else if (ref) {
      const hit = found.get(keyOf(ref.kind, ref.id, SCOPED.has(ref.kind) ? row.tenant_id : null));
      name = hit ? words(ref.kind, hit.name, hit.extra) : GONE[ref.kind];
    } else name = row.actor_email;
    const token =
      row.source_type === "api" && row.source_token_id ? (found.get(keyOf("api_token", row.source_token_id, null))?.name ?? null) : null;
    return {
      ...event,
      actor: { ...event.actor, name },
      ...(row.source_type === "api" ? { source_token_name: token } : {}),
    };
  });
}
