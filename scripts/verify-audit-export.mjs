#!/usr/bin/env node
/**
 * Proves offline that an audit export is complete and unaltered between signed digests.
 * Standalone: node:crypto and node:fs only, nothing from the project, so an auditor can read it
 * whole and run it on any Node 20+.
 *
 *   node verify-audit-export.mjs --export audit.csv|audit.json --jwks jwks.json --digests digests.json [--digests more.json]
 *
 * --digests: the GET .../audit/digests response, a JSON array of digests or JWS strings, one
 * digest, or a text file with one JWS per line; repeatable. Only what the signatures cover is
 * trusted: each JWS is verified with its `kid`'s key from the JWKS, and its payload is used.
 * The digests, ordered, span sequences [first.from_sequence, last.to_sequence]; every event in
 * that span must be in the export exactly once, rehash to its `hash` (the database's
 * audit_event_hash(), in the form of the row's chain_version: 1 for events written before sources
 * were recorded, 2 since, covering the source), link to the one before by `prev_hash`, and every
 * digest's head_hash must be the hash of the event at its to_sequence. Adjacent digests must chain
 * by previous_digest_hash. The file must be in the export's order (newest first, ties by id).
 *
 * Exit 0 with one line "OK: …"; 1 with "FAILED at sequence N: …" (or what failed); 2 on bad input.
 */
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

const ZERO_HASH = "0".repeat(64);

class Failure extends Error {}
class BadInput extends Error {}
const fail = (sequence, message) => {
  throw new Failure(sequence === null ? message : `at sequence ${sequence}: ${message}`);
};

// ---- JSON that keeps numbers as written (jsonb's digits, e.g. 1.50, must survive) ----

class Num {
  constructor(raw) {
    this.raw = raw;
  }
}

/** The JSON values in `text`, one by one; with `spread`, a top-level array's elements instead of the array. */
function* jsonValues(text, spread = false) {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const error = (what) => {
    throw new BadInput(`export is not valid JSON (${what} at offset ${i})`);
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const entries = [];
      ws();
      if (text[i] === "}") {
        i++;
        return { entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') error("expected a key");
        const key = string();
        ws();
        if (text[i++] !== ":") error("expected ':'");
        entries.push([key, value()]);
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return (i++, { entries });
        else error("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const items = [];
      ws();
      if (text[i] === "]") return (i++, items);
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return (i++, items);
        else error("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) error("unexpected character");
    i += literal[0].length;
    return literal[0] === "true" ? true : literal[0] === "false" ? false : literal[0] === "null" ? null : new Num(literal[0]);
  };
  const string = () => {
    const start = i++;
    while (text[i] !== '"') {
      if (i >= text.length) error("unterminated string");
      i += text[i] === "\\" ? 2 : 1;
    }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  ws();
  if (spread && text[i] === "[") {
    i++;
    ws();
    if (text[i] === "]") i++;
    else {
      for (;;) {
        yield value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") break;
        else error("expected ',' or ']'");
      }
      i++;
    }
    ws();
    if (i < text.length) error("text after the array");
    return;
  }
  for (; i < text.length; ws()) yield value();
}

const utf8 = (s) => Buffer.from(s, "utf8");

/** The text Postgres gives a jsonb value: keys by byte length then bytes, ", " and ": " separators. */
function jsonbText(v) {
  if (v === null) return "null";
  if (v === true || v === false) return String(v);
  if (v instanceof Num) return v.raw;
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(", ")}]`;
  const entries = [...v.entries].sort(([a], [b]) => utf8(a).length - utf8(b).length || Buffer.compare(utf8(a), utf8(b)));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}: ${jsonbText(x)}`).join(", ")}}`;
}

const get = (object, key) =>
  object && !Array.isArray(object) && object.entries ? object.entries.find(([k]) => k === key)?.[1] : undefined;

// ---- CSV (RFC 4180), telling an empty quoted cell ("" = empty string) from an empty one (NULL) ----

const CELL_END = /[,\n]/g;

function* csvRecords(text) {
  let record = [];
  let i = 0;
  for (;;) {
    let value = "";
    let quoted = false;
    if (text[i] === '"') {
      quoted = true;
      i++;
      for (;;) {
        const end = text.indexOf('"', i);
        if (end < 0) throw new BadInput("export CSV has an unterminated quoted cell");
        value += text.slice(i, end);
        i = end + 1;
        if (text[i] !== '"') break;
        value += '"';
        i++;
      }
    } else {
      CELL_END.lastIndex = i;
      const end = CELL_END.exec(text)?.index ?? text.length;
      value = text.slice(i, end).replace(/\r$/, "");
      i = end;
    }
    record.push({ value, quoted });
    if (text[i] === ",") {
      i++;
      continue;
    }
    yield record;
    record = [];
    if (text[i] === "\r") i++;
    i++;
    if (i >= text.length) return;
  }
}

/** A guarded CSV cell ('=…, '+…, '-…, '@…, '\t…, '\r…) may be the value or the value with that quote (the hash decides). */
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

function loadDigests(files) {
  const jwss = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8").trim();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text.split(/\s+/).filter(Boolean);
    }
    const items = Array.isArray(parsed) ? parsed : (parsed?.results ?? [parsed]);
    for (const item of items) jwss.push(typeof item === "string" ? item : item?.jws);
  }
  if (jwss.length === 0 || jwss.some((j) => typeof j !== "string")) throw new BadInput("no digests (each needs its jws)");
  return [...new Set(jwss)];
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

function main(argv) {
  const args = { export: [], jwks: [], digests: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, "");
    if (!(name in args) || argv[i + 1] === undefined)
      throw new BadInput(`usage: verify-audit-export.mjs --export FILE --jwks FILE --digests FILE [--digests FILE]`);
    args[name].push(argv[i + 1]);
  }
  if (args.export.length !== 1 || args.jwks.length !== 1 || args.digests.length === 0)
    throw new BadInput("give --export, --jwks and --digests");

  const { keys } = JSON.parse(readFileSync(args.jwks[0], "utf8"));
  const digests = loadDigests(args.digests)
    .map((jws) => verifyDigest(jws, keys))
    .sort((a, b) => a.from_sequence - b.from_sequence);
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

  const text = readFileSync(args.export[0], "utf8");
  const rows = [...(/^\s*[[{]/.test(text) ? jsonRows(text) : csvRows(text, tenantId))];

  // The export's order: newest first, ties by id. A row moved elsewhere in the file breaks it.
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    if (!(a.timestamp > b.timestamp || (a.timestamp === b.timestamp && a.id > b.id)))
      fail(b.sequence, "the row is out of the export's order (newest first)");
  }
  const bySequence = new Map();
  for (const row of rows) {
    if (row.tenantId !== tenantId) fail(row.sequence, "the row is of another tenant than the digests");
    if (bySequence.has(row.sequence)) fail(row.sequence, "the sequence appears twice");
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
  const kids = [...new Set(digests.map((d) => d.kid))].join(", ");
  return `OK: tenant ${tenantId}, sequences ${first}-${last} complete and unaltered (${last - first + 1} events; ${digests.length} digests, keys ${kids}; ${rows.length - (last - first + 1)} other rows in the export not covered)`;
}

try {
  console.log(main(process.argv.slice(2)));
} catch (error) {
  if (error instanceof Failure) {
    console.error(`FAILED ${error.message}`);
    process.exit(1);
  }
  console.error(`error: ${error instanceof BadInput ? error.message : (error.message ?? error)}`);
  process.exit(2);
}
