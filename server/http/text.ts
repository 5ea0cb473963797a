/**
 * The REST edge's half of "bad bytes are a 400" (the other half, for every procedure input, is
 * in server/trpc/procedures.ts): the parts of a request outside the JSON body that reach the
 * database must be UTF-8 text without NUL. The JSON body itself is decoded strictly in body.ts.
 */
import { InvalidField } from "../errors.ts";
import type { Exchange } from "./exchange.ts";
import { decodePercent, decodeQueryText, decodeUtf8, NOT_UTF8, textProblem } from "../contract/fields.ts";
import { operationAt, parameterNames } from "./operations.ts";

/** The REST edge's text stage (rest.ts): the URL, and the headers the API stores. */
export function assertRequestText(x: Exchange): void {
  assertUrlText(x.method, x.path, x.url.search);
  assertHeaderText(x.req.headers);
}

/**
 * Query parameters (name and value) and path segments: percent-escapes must decode to text, and
 * a documented integer parameter must be written in decimal digits (the adapter's coercion would
 * read "0x10", "1e2" or " 7 " as numbers).
 */
function assertUrlText(method: string, path: string, search: string): void {
  const segments = path.split("/").filter(Boolean);
  segments.forEach((segment, i) => {
    const decoded = decodePercent(segment);
    const problem = decoded === null ? NOT_UTF8 : textProblem(decoded);
    if (problem) throw InvalidField(parameterNames(method, segments)[i] ?? "path", problem);
  });
  const query = decodeQueryText(search);
  if (!query.ok) throw InvalidField(query.name, query.problem);
  const integers = operationAt(method, segments)?.integers;
  if (!integers) return;
  for (const [name, value] of query.pairs)
    if (integers.has(name) && !/^-?\d+$/.test(value)) throw InvalidField(name, "must be an integer written in decimal digits");
}

/** Header values the API stores (audit metadata, idempotency keys). HTTP carries them as bytes. */
const STORED_HEADERS = ["User-Agent", "Idempotency-Key"];

function assertHeaderText(headers: Headers): void {
  for (const name of STORED_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    const decoded = decodeUtf8(Buffer.from(value, "latin1"));
    const problem = decoded === null ? "is not valid UTF-8" : textProblem(decoded);
    if (problem) throw InvalidField(name, problem);
  }
}
