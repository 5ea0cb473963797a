/**
 * The REST edge's half of "bad bytes are a 400" (the other half, for every procedure input, is
 * in server/trpc/procedures.ts): the parts of a request outside the JSON body that reach the
 * database must be UTF-8 text without NUL. The JSON body itself is decoded strictly in rest.ts.
 */
import { InvalidField } from "../errors.ts";
import { decodePercent, decodeUtf8, textProblem } from "../schemas/text.ts";
import { openApiDocument } from "./openapi.ts";

const NOT_UTF8 = "is not valid UTF-8 (percent-encoded bytes must be UTF-8)";

let templates: string[][] | undefined;

/** The path parameter at each segment ("tenant_id"), from the operations the API documents. */
function parameterNames(segments: string[]): (string | null)[] {
  templates ??= Object.keys(openApiDocument("http://localhost").paths ?? {}).map((path) => path.split("/").filter(Boolean));
  const template = templates.find((t) => t.length === segments.length && t.every((part, i) => part.startsWith("{") || part === segments[i]));
  return segments.map((_, i) => (template?.[i]?.startsWith("{") ? template[i]!.slice(1, -1) : null));
}

/** Query parameters (name and value) and path segments: percent-escapes must decode to text. */
export function assertUrlText(url: URL, prefixLength: number): void {
  const segments = url.pathname.slice(prefixLength).split("/").filter(Boolean);
  segments.forEach((segment, i) => {
    const decoded = decodePercent(segment);
    const problem = decoded === null ? NOT_UTF8 : textProblem(decoded);
    if (problem) throw InvalidField(parameterNames(segments)[i] ?? "path", problem);
  });
  for (const pair of url.search.slice(1).split("&")) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    const [rawName, rawValue] = at === -1 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    const name = decodePercent(rawName.replace(/\+/g, " "));
    const nameProblem = name === null ? NOT_UTF8 : textProblem(name);
    if (nameProblem) throw InvalidField("query", `a parameter name ${nameProblem}`);
    const value = decodePercent(rawValue.replace(/\+/g, " "));
    const problem = value === null ? NOT_UTF8 : textProblem(value);
    if (problem) throw InvalidField(name!, problem);
  }
}

/** Header values the API stores (audit metadata, idempotency keys). HTTP carries them as bytes. */
const STORED_HEADERS = ["User-Agent", "Idempotency-Key"];

export function assertHeaderText(headers: Headers): void {
  for (const name of STORED_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    const decoded = decodeUtf8(Buffer.from(value, "latin1"));
    const problem = decoded === null ? "is not valid UTF-8" : textProblem(decoded);
    if (problem) throw InvalidField(name, problem);
  }
}

/** A header value as the client meant it: HTTP hands us its bytes as latin1 characters. */
export function headerText(value: string | null): string | null {
  if (value === null) return null;
  return decodeUtf8(Buffer.from(value, "latin1")) ?? value;
}
