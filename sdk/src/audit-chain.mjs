/**
 * Audit export verification, shared by the SDK (`verifyAuditExport`) and the command line
 * (scripts/verify-audit-export.mjs): proves an audit export complete and unaltered between signed
 * digests. node:crypto only, nothing else from the project, so an auditor can read it whole.
 *
 * The digests, ordered, span sequences [first.from_sequence, last.to_sequence]; every event in
 * that span must be in the export exactly once, rehash to its `hash` (the database's
 * audit_event_hash(), in the form of the row's chain_version: 1 for events written before sources
 * were recorded, 2 since, covering the source), link to the one before by `prev_hash`, and every
 * digest's head_hash must be the hash of the event at its to_sequence. Adjacent digests must chain
 * by previous_digest_hash. The export must be in its order (newest first, ties by id). Only what
 * the signatures cover is trusted: each JWS is verified with its `kid`'s key from the JWKS.
 */
import { createHash, createPublicKey, verify } from "node:crypto";

import { AuditInputError, Num, csvRecords, get, jsonValues, jsonbText } from "./audit-export-text.mjs";

export { AuditInputError };
const ZERO_HASH = "0".repeat(64);

/** The export is not complete and unaltered: `sequence` is where (null when a digest is at fault). */
export class AuditChainFailure extends Error {
  constructor(sequence, message) {
    super(sequence === null ? message : `at sequence ${sequence}: ${message}`);
    this.sequence = sequence;
    this.reason = message;
  }
}
/** What was given cannot be read (not JSON or CSV, no digests, a missing column). */
const BadInput = AuditInputError;
const fail = (sequence, message) => {
  throw new AuditChainFailure(sequence, message);
};

const unguarded = (cell) => (cell === null ? [null] : /^'[=+\-@\t\r]/.test(cell) ? [cell, cell.slice(1)] : [cell]);

const HASHED = ["actor_id", "actor_email", "ip_address", "user_agent", "target_type", "target_id"];
/** Hashed after prev_hash (version 1: only when present); exports made before it existed have no such column (null). */
const NAME = "target_name";
/** Version 2 only: who wrote the event. Exports made before versions existed have none of these columns (version 1). */
const SOURCE = ["source_token_id", "source_user_id"];

/** What the checks need of a row once its hash has been recomputed (the rows are not kept whole). */
const checked = (row) => ({
  sequence: row.sequence,
  id: row.id,
  tenantId: row.tenantId,
  timestamp: row.timestamp,
  prevHash: row.prevHash,
  hash: row.hash,
  intact: rehashes(row),
});

function* csvRows(text, tenantId) {
  const records = csvRecords(text.replace(/^\uFEFF/, ""));
  const names = (records.next().value ?? []).map((c) => c.value);
  for (const column of ["id", "event_type", ...HASHED, "timestamp", "details", "sequence", "hash", "prev_hash"]) {
    if (!names.includes(column)) throw new BadInput(`export CSV has no ${column} column`);
  }
  const at = Object.fromEntries(names.map((name, index) => [name, index]));
  for (const record of records) {
    if (record.length === 1 && record[0].value === "" && !record[0].quoted) continue;
    const cell = (name) => {
      const c = record[at[name]];
      return !c || (c.value === "" && !c.quoted) ? null : c.value;
    };
    const [details] = jsonValues(cell("details") ?? "null");
    const optional = (name) => (at[name] === undefined ? null : cell(name));
    yield checked({
      sequence: Number(cell("sequence")),
      id: cell("id"),
      tenantId,
      eventType: cell("event_type"),
      version: Number(optional("chain_version") ?? 1),
      sourceType: optional("source_type"),
      choices: [...HASHED, NAME, ...SOURCE].map((name) => unguarded(optional(name))),
      timestamp: cell("timestamp"),
      details,
      prevHash: cell("prev_hash"),
      hash: cell("hash"),
    });
  }
}

function* jsonRows(text) {
  for (const e of jsonValues(text, true)) {
    // A log stream's S3 object may end with its batch's digest as a line of its own.
    if (get(e, "type") === "digest" && get(e, "sequence") === undefined) continue;
    const str = (v) => (typeof v === "string" ? v : null);
    const actor = get(e, "actor");
    const metadata = get(e, "metadata");
    const target = get(e, "target");
    const source = get(e, "source");
    const fields = [
      get(actor, "id"),
      get(actor, "email"),
      get(metadata, "ip_address"),
      get(metadata, "user_agent"),
      get(target, "type"),
      get(target, "id"),
      get(target, "name"),
      get(source, "token_id"),
      get(source, "user_id"),
    ];
    const sequence = get(e, "sequence");
    const version = get(e, "chain_version");
    yield checked({
      sequence: sequence instanceof Num ? Number(sequence.raw) : NaN,
      id: str(get(e, "id")),
      tenantId: str(get(e, "tenant_id")),
      eventType: str(get(e, "event_type")),
      // Exports made before versions existed have no chain_version (version 1) and no source.
      version: version === undefined ? 1 : version instanceof Num ? Number(version.raw) : NaN,
      sourceType: str(get(source, "type")),
      choices: fields.map((v) => [str(v)]),
      timestamp: str(get(e, "timestamp")),
      details: get(e, "details") ?? null,
      prevHash: str(get(e, "prev_hash")),
      hash: str(get(e, "hash")),
    });
  }
}

/**
 * audit_event_hash(): hex SHA-256 of the UTF-8 text of a jsonb array, in the form of the row's chain_version.
 * Version 1 (a row without a source): [sequence, id, tenant_id, …, details, timestamp, prev_hash], with
 * target_name as one more element when the event has one. Any other row (version 2): [chain_version,
 * sequence, id, tenant_id, …, details, timestamp, prev_hash, target_name, source_type, source_token_id,
 * source_user_id], so a row that claims a source is only intact if its hash covers that source.
 */
function rehashes(row) {
  const combos = row.choices.reduce((acc, options) => acc.flatMap((prefix) => options.map((o) => [...prefix, o])), [[]]);
  return combos.some((hashed) => {
    const [name = null, tokenId = null, userId = null] = hashed.slice(6);
    const fields = [
      new Num(String(row.sequence)),
      row.id,
      row.tenantId,
      row.eventType,
      ...hashed.slice(0, 6),
      row.details,
      row.timestamp,
      row.prevHash,
    ];
    const v1 = row.version === 1 && row.sourceType === null && tokenId === null && userId === null;
    const canonical = jsonbText(
      v1 ? [...fields, ...(name === null ? [] : [name])] : [new Num(String(row.version)), ...fields, name, row.sourceType, tokenId, userId],
    );
    return createHash("sha256").update(canonical, "utf8").digest("hex") === row.hash;
  });
}

// ---- digests ----

/**
 * The JWS strings of a digests file's text: the GET .../audit/digests response, a JSON array of
 * digests or JWS strings, one digest, or one JWS per line.
 */
export function parseDigests(text) {
  let parsed;
  try {
    parsed = JSON.parse(text.trim());
  } catch {
    parsed = text.split(/\s+/).filter(Boolean);
  }
  const items = Array.isArray(parsed) ? parsed : (parsed?.results ?? [parsed]);
  return items.map((item) => (typeof item === "string" ? item : item?.jws));
}

function verifyDigest(jws, keys) {
  const [h, p, s, extra] = jws.split(".");
  if (!h || !p || !s || extra !== undefined) fail(null, "a digest is not a compact JWS");
  const header = JSON.parse(Buffer.from(h, "base64url").toString("utf8"));
  if (header.alg !== "EdDSA") fail(null, `digest signed with alg ${header.alg}, not EdDSA`);
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) fail(null, `no key ${header.kid} in the JWKS`);
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: "jwk" });
  if (!verify(null, Buffer.from(`${h}.${p}`), key, Buffer.from(s, "base64url")))
    fail(null, `a digest's signature does not verify (kid ${header.kid})`);
  return { ...JSON.parse(Buffer.from(p, "base64url").toString("utf8")), jws, kid: header.kid };
}

/**
 * Checks `exportText` (the JSON or CSV export) against `digests` (JWS strings, or digests with
 * their `jws`) signed by keys of `jwks`. Throws AuditChainFailure when the export is incomplete or
 * altered, AuditInputError when the input cannot be read; returns what it proved otherwise.
 */
export function verifyAuditExportText({ exportText, jwks, digests: given }) {
  const keys = jwks?.keys ?? [];
  const jwss = [...new Set(given.map((d) => (typeof d === "string" ? d : d?.jws)))];
  if (jwss.length === 0 || jwss.some((j) => typeof j !== "string")) throw new BadInput("no digests (each needs its jws)");
  const digests = jwss.map((jws) => verifyDigest(jws, keys)).sort((a, b) => a.from_sequence - b.from_sequence);
  const tenantId = digests[0].tenant_id;
  for (const [i, d] of digests.entries()) {
    if (d.tenant_id !== tenantId) fail(null, "the digests are of different tenants");
    const before = digests[i - 1];
    if (before && d.from_sequence <= before.to_sequence) fail(null, `digests overlap at sequence ${d.from_sequence}`);
    if (
      before &&
      d.from_sequence === before.to_sequence + 1 &&
      d.previous_digest_hash !== createHash("sha256").update(before.jws).digest("hex")
    ) {
      fail(null, `the digest from sequence ${d.from_sequence} does not chain to the one before (previous_digest_hash)`);
    }
  }
  const first = digests[0].from_sequence;
  const last = digests.at(-1).to_sequence;

  const text = exportText;
  const rows = [...(/^\s*[[{]/.test(text) ? jsonRows(text) : csvRows(text, tenantId))];

  // An export (a JSON array, or CSV) is newest first, ties by id: a row moved elsewhere in the
  // file breaks it. A log stream's copy (JSON values one after another, NDJSON, as receivers keep
  // them) may come in any order and at least once: a batch sent again repeats its events, which
  // are dropped when identical (same sequence, id and hash) and refused otherwise.
  const streamCopy = /^\s*\{/.test(text);
  for (let i = 1; i < rows.length && !streamCopy; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    if (!(a.timestamp > b.timestamp || (a.timestamp === b.timestamp && a.id > b.id)))
      fail(b.sequence, "the row is out of the export's order (newest first)");
  }
  const bySequence = new Map();
  for (const row of rows) {
    if (row.tenantId !== tenantId) fail(row.sequence, "the row is of another tenant than the digests");
    const seen = bySequence.get(row.sequence);
    if (seen && !(streamCopy && seen.hash === row.hash && seen.id === row.id)) fail(row.sequence, "the sequence appears twice");
    bySequence.set(row.sequence, row);
  }
  const heads = new Map(digests.map((d) => [d.to_sequence, d.head_hash]));
  let previous = first === 1 ? ZERO_HASH : bySequence.get(first - 1)?.hash;
  for (let sequence = first; sequence <= last; sequence++) {
    const row = bySequence.get(sequence);
    if (!row) fail(sequence, "the event is missing from the export");
    if (!row.intact) fail(sequence, "the row's fields do not hash to its hash (altered)");
    if (previous !== undefined && row.prevHash !== previous) fail(sequence, "prev_hash does not link to the event before");
    if (heads.has(sequence) && heads.get(sequence) !== row.hash) fail(sequence, "hash differs from the signed digest's head_hash");
    previous = row.hash;
  }
  const kids = [...new Set(digests.map((d) => d.kid))];
  return {
    tenantId,
    firstSequence: first,
    lastSequence: last,
    events: last - first + 1,
    digests: digests.length,
    kids,
    uncovered: rows.length - (last - first + 1),
  };
}
