/**
 * JSON.stringify for answers that may be large (a SCIM group of tens of thousands of members, a
 * page of such groups), written in turns: after every TURN_MS of work the event loop serves other
 * requests, so no answer holds it for long. The text is JSON.stringify's: the same members, order
 * and escapes (a value's toJSON is honoured, undefined and functions are left out of objects and
 * written as null in arrays).
 */
const TURN_MS = 8;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Yields at every array element and object member, so the driver below can pause between any two. */
function* write(value: unknown, parts: string[]): Generator<void> {
  const json = value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function";
  const v = json ? (value as { toJSON: () => unknown }).toJSON() : value;
  if (Array.isArray(v)) {
    parts.push("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) parts.push(",");
      const item = v[i];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") parts.push("null");
      else yield* write(item, parts);
      yield;
    }
    parts.push("]");
  } else if (v !== null && typeof v === "object") {
    parts.push("{");
    let first = true;
    for (const [key, item] of Object.entries(v)) {
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
      parts.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      yield* write(item, parts);
    }
    parts.push("}");
  } else parts.push(JSON.stringify(v) ?? "null");
}

export async function jsonInTurns(value: unknown): Promise<string> {
  const parts: string[] = [];
  const writing = write(value, parts);
  let since = performance.now();
  for (let step = writing.next(); !step.done; step = writing.next()) {
    if (performance.now() - since < TURN_MS) continue;
    await nextTurn();
    since = performance.now();
  }
  return parts.join("");
}
