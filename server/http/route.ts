/**
 * The REST edge's route stage (rest.ts): the request must be one the document describes. A path
 * that exists with other methods is a 405 with `Allow`; a query parameter the operation does not
 * take is a 400 naming each one (a typo such as `actor=` for `actor_id=` would otherwise be
 * ignored, answering with everything). What the document lists is what the server reads: the
 * operation's input schema, and the hand-written parts (the audit export's `format`). An unknown
 * path is left to the operation stage's 404.
 */
import { InvalidRequest, MethodNotAllowed } from "../errors.ts";
import { decodeQueryText } from "../contract/fields.ts";
import type { Exchange } from "./exchange.ts";
import { exactOperationAt, methodsAt } from "./operations.ts";

export function assertRoute(x: Exchange): void {
  const segments = x.path.split("/").filter(Boolean);
  const operation = exactOperationAt(x.method, segments);
  if (!operation) {
    const allow = methodsAt(segments);
    if (allow.length) throw MethodNotAllowed(x.method, allow);
    return;
  }
  const query = decodeQueryText(x.url.search);
  if (!query.ok) return; // the text stage has refused it already
  const unknown = [...new Set(query.pairs.map(([name]) => name))].filter((name) => !operation.query.includes(name));
  if (!unknown.length) return;
  const takes = operation.query.length ? `takes ${operation.query.join(", ")}` : "takes no query parameters";
  const message = `is not a query parameter of this operation (it ${takes})`;
  throw InvalidRequest(
    `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: ${operation.method} ${operation.template} ${takes}`,
    unknown.map((path) => ({ path, message })),
  );
}
