/**
 * SCIM filters (RFC 7644 §3.4.2.2) and PATCH paths (§3.5.2), parsed to a small AST. Operators,
 * `and`/`or`/`not` and the literals true/false/null are case-insensitive (ABNF strings are);
 * precedence is not > and > or. Beyond the ABNF we accept `attr[filter].sub op value` (the issue's
 * `emails[type eq "work"].value eq …`), read as `attr[filter and sub op value]`.
 */
import { invalidFilter, invalidPath, type ScimError } from "./errors.ts";

/** `urn` is the schema URN as written (null: none); `attr` and `sub` as written (names are matched case-insensitively later). */
export interface AttrPath {
  urn: string | null;
  attr: string;
  sub: string | null;
}
export const COMPARE_OPS = ["eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le"] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];
export type Literal = string | number | boolean | null;

export type Filter =
  | { op: "and" | "or"; left: Filter; right: Filter }
  | { op: "not"; filter: Filter }
  | { op: "pr"; path: AttrPath }
  | { op: CompareOp; path: AttrPath; value: Literal }
  /** A value filter: `path[filter]`, the inner paths relative to an element of `path`. */
  | { op: "[]"; path: AttrPath; filter: Filter };

/** A PATCH path: `attrPath`, or `valuePath` optionally followed by `.subAttr` (RFC 7644 §3.5.2). */
export interface PatchPath {
  path: AttrPath;
  filter: Filter | null;
  /** The sub-attribute after a value filter (`emails[type eq "work"].value` → "value"). */
  sub: string | null;
}

const NAME = /^(?:[A-Za-z][\w-]*|\$ref)$/;
const WORD = /[\w$.:-]/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 50;
/** Comparisons in one filter: enough for any IdP, few enough that the SQL stays small. */
const MAX_TERMS = 200;

class Parser {
  pos = 0;
  depth = 0;
  terms = 0;
  constructor(
    readonly text: string,
    readonly error: (detail: string) => ScimError,
  ) {}

  fail(problem: string): never {
    const at = this.pos >= this.text.length ? "at the end" : `at position ${this.pos + 1} ('${this.text.slice(this.pos, this.pos + 10)}')`;
    throw this.error(`${problem} ${at} of the filter`);
  }

  ws() {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  peekWord(): string {
    this.ws();
    let end = this.pos;
    while (end < this.text.length && WORD.test(this.text[end]!)) end++;
    return this.text.slice(this.pos, end);
  }

  word(): string {
    const word = this.peekWord();
    this.pos += word.length;
    return word;
  }

  eat(char: string): boolean {
    this.ws();
    if (this.text[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  expect(char: string) {
    if (!this.eat(char)) this.fail(`expected '${char}'`);
  }

  atEnd() {
    this.ws();
    return this.pos >= this.text.length;
  }

  or(inBrackets: boolean): Filter {
    let left = this.and(inBrackets);
    while (this.peekWord().toLowerCase() === "or") {
      this.word();
      left = { op: "or", left, right: this.and(inBrackets) };
    }
    return left;
  }

  and(inBrackets: boolean): Filter {
    let left = this.unary(inBrackets);
    while (this.peekWord().toLowerCase() === "and") {
      this.word();
      left = { op: "and", left, right: this.unary(inBrackets) };
    }
    return left;
  }

  unary(inBrackets: boolean): Filter {
    if (++this.depth > MAX_DEPTH) this.fail("too deeply nested");
    try {
      if (this.eat("(")) {
        const inner = this.or(inBrackets);
        this.expect(")");
        return inner;
      }
      const start = this.pos;
      if (this.word().toLowerCase() === "not" && this.eat("(")) {
        const inner = this.or(inBrackets);
        this.expect(")");
        return { op: "not", filter: inner };
      }
      this.pos = start;
      return this.attributeExpression(inBrackets);
    } finally {
      this.depth--;
    }
  }

  attrPath(): AttrPath {
    const start = (this.ws(), this.pos);
    const token = this.word();
    if (token === "") this.fail("expected an attribute name");
    const colon = token.toLowerCase().startsWith("urn:") ? token.lastIndexOf(":") : -1;
    const names = token.slice(colon + 1).split(".");
    if (names.length > 2 || !names.every((name) => NAME.test(name))) {
      this.pos = start;
      this.fail(`'${token}' is not an attribute path`);
    }
    return { urn: colon === -1 ? null : token.slice(0, colon), attr: names[0]!, sub: names[1] ?? null };
  }

  attributeExpression(inBrackets: boolean): Filter {
    const path = this.attrPath();
    if (this.eat("[")) {
      if (inBrackets) this.fail("value filters cannot be nested");
      if (path.sub !== null) this.fail("a value filter applies to an attribute, not a sub-attribute");
      const inner = this.or(true);
      this.expect("]");
      if (this.text[this.pos] !== ".") return { op: "[]", path, filter: inner };
      this.pos++;
      const sub = this.word();
      if (!NAME.test(sub)) this.fail("expected a sub-attribute name");
      const rest = this.comparison({ urn: null, attr: sub, sub: null });
      return { op: "[]", path, filter: { op: "and", left: inner, right: rest } };
    }
    return this.comparison(path);
  }

  comparison(path: AttrPath): Filter {
    if (++this.terms > MAX_TERMS) this.fail(`more than ${MAX_TERMS} comparisons`);
    const op = this.word().toLowerCase();
    if (op === "pr") return { op: "pr", path };
    if (!(COMPARE_OPS as readonly string[]).includes(op)) this.fail(op ? `unknown operator '${op}'` : "expected an operator");
    return { op: op as CompareOp, path, value: this.literal() };
  }

  literal(): Literal {
    this.ws();
    if (this.text[this.pos] === '"') return this.string();
    NUMBER.lastIndex = this.pos;
    const number = NUMBER.exec(this.text);
    if (number && !WORD.test(this.text[this.pos + number[0].length] ?? " ")) {
      this.pos += number[0].length;
      return Number(number[0]);
    }
    const word = this.peekWord().toLowerCase();
    if (word === "true" || word === "false" || word === "null") {
      this.word();
      return word === "null" ? null : word === "true";
    }
    this.fail("expected a value (a quoted string, a number, true, false or null)");
  }

  string(): string {
    const start = this.pos;
    let end = start + 1;
    while (end < this.text.length && this.text[end] !== '"') end += this.text[end] === "\\" ? 2 : 1;
    if (end >= this.text.length) this.fail("unterminated string");
    try {
      const value = JSON.parse(this.text.slice(start, end + 1)) as string;
      this.pos = end + 1;
      return value;
    } catch {
      this.fail("invalid string (JSON escapes only, no raw control characters)");
    }
  }
}

/** Throws ScimError(400, "invalidFilter") with a detail naming the position/problem. */
export function parseFilter(text: string): Filter {
  const parser = new Parser(text, invalidFilter);
  if (parser.atEnd()) parser.fail("empty filter");
  const filter = parser.or(false);
  if (!parser.atEnd()) parser.fail("unexpected text");
  return filter;
}

/** A PATCH operation's `path`; throws ScimError(400, "invalidPath"). */
export function parsePatchPath(text: string): PatchPath {
  const parser = new Parser(text, invalidPath);
  const path = parser.attrPath();
  let filter: Filter | null = null;
  let sub: string | null = null;
  if (parser.eat("[")) {
    if (path.sub !== null) parser.fail("a value filter applies to an attribute, not a sub-attribute");
    filter = parser.or(true);
    parser.expect("]");
    if (parser.text[parser.pos] === ".") {
      parser.pos++;
      sub = parser.word();
      if (!NAME.test(sub)) parser.fail("expected a sub-attribute name");
    }
  }
  if (!parser.atEnd()) parser.fail("unexpected text");
  return { path, filter, sub };
}

/** The path as text (for error details). */
export const pathText = (path: AttrPath) => `${path.urn ? `${path.urn}:` : ""}${path.attr}${path.sub ? `.${path.sub}` : ""}`;
