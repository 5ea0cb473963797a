/**
 * Reading an audit export's text as the audit chain checks need it (./audit-chain.mjs): JSON that
 * keeps numbers as written and re-serializes as Postgres's jsonb does, and CSV that tells an empty
 * quoted cell from an empty one. node: built-ins only.
 */

/** What was given cannot be read (not JSON or CSV, no digests, a missing column). */
export class AuditInputError extends Error {}
const BadInput = AuditInputError;

// ---- JSON that keeps numbers as written (jsonb's digits, e.g. 1.50, must survive) ----

export class Num {
  constructor(raw) {
    this.raw = raw;
  }
}

/** The JSON values in `text`, one by one; with `spread`, a top-level array's elements instead of the array. */
export function* jsonValues(text, spread = false) {
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
export function jsonbText(v) {
  if (v === null) return "null";
  if (v === true || v === false) return String(v);
  if (v instanceof Num) return v.raw;
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(", ")}]`;
  const entries = [...v.entries].sort(([a], [b]) => utf8(a).length - utf8(b).length || Buffer.compare(utf8(a), utf8(b)));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}: ${jsonbText(x)}`).join(", ")}}`;
}

export const get = (object, key) =>
  object && !Array.isArray(object) && object.entries ? object.entries.find(([k]) => k === key)?.[1] : undefined;

// ---- CSV (RFC 4180), telling an empty quoted cell ("" = empty string) from an empty one (NULL) ----

const CELL_END = /[,\n]/g;

export function* csvRecords(text) {
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
