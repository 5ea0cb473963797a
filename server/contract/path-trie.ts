/**
 * Path patterns matched segment by segment with Next's precedence: at each segment a literal
 * beats a parameter, which beats a catch-all, and when the rest of the path does not match the
 * next choice is tried (`/api/v1/openapi.json` is the document, `/api/v1/tenants` the REST edge,
 * `.../audit/verify` is not `.../audit/{event_id}`). Everything that maps paths to routes or
 * operations matches here, so there is one precedence: the route table (routes.ts), its REST
 * metric labels, and the REST edge's operation index (server/http/operations.ts).
 *
 * A path is matched as its segments (`path.split("/")`): a walk down a tree of maps, so the cost
 * is the path's length, not the number of patterns.
 */

export type Segment = { literal: string } | { param: string } | { rest: string };

/** Next's syntax, as the app/ tree spells it: `/api/sso/saml/[providerId]/acs`, `/api/[...path]`. */
export function nextSegments(pattern: string): Segment[] {
  return pattern
    .split("/")
    .slice(1)
    .map((part) => {
      const name = /^\[(\.\.\.)?([^\]]+)\]$/.exec(part);
      if (!name) return { literal: part };
      return name[1] ? { rest: name[2]! } : { param: name[2]! };
    });
}

/** OpenAPI's syntax: `/tenants/{tenant_id}/audit`. */
export function templateSegments(template: string): Segment[] {
  return template
    .split("/")
    .slice(1)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? { param: part.slice(1, -1) } : { literal: part }));
}

interface Node<T> {
  literals: Map<string, Node<T>>;
  param?: Node<T>;
  /** A catch-all here: one or more further segments, empty ones included (a prefix match). */
  rest?: T;
  value?: T;
}

const node = <T>(): Node<T> => ({ literals: new Map() });

export class PathTrie<T> {
  private readonly root = node<T>();

  /** The first value added for a pattern stays (later ones are shadowed by it, as in a list). */
  add(pattern: readonly Segment[], value: T): void {
    let at = this.root;
    for (const [i, segment] of pattern.entries()) {
      if ("rest" in segment) {
        if (i !== pattern.length - 1) throw new Error("a catch-all segment must be the last");
        at.rest ??= value;
        return;
      }
      if ("param" in segment) {
        at = at.param ??= node();
      } else {
        let next = at.literals.get(segment.literal);
        if (!next) at.literals.set(segment.literal, (next = node()));
        at = next;
      }
    }
    at.value ??= value;
  }

  /** `segments` from index `from` on (1 skips the empty one before a path's leading "/"). */
  match(segments: readonly string[], from = 0): T | undefined {
    return find(this.root, segments, from);
  }
}

function find<T>(at: Node<T>, segments: readonly string[], i: number): T | undefined {
  if (i === segments.length) return at.value;
  const segment = segments[i]!;
  const literal = at.literals.get(segment);
  if (literal) {
    const found = find(literal, segments, i + 1);
    if (found !== undefined) return found;
  }
  // A parameter is never empty (`//` or a trailing "/" is not one).
  if (at.param && segment !== "") {
    const found = find(at.param, segments, i + 1);
    if (found !== undefined) return found;
  }
  return at.rest;
}

/** The parameters of `segments` (from index `from`) matched by `pattern`, undecoded; a catch-all's as a list. */
export function paramsOf(pattern: readonly Segment[], segments: readonly string[], from = 0): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  pattern.forEach((segment, i) => {
    if ("param" in segment) params[segment.param] = segments[from + i]!;
    else if ("rest" in segment) params[segment.rest] = segments.slice(from + i);
  });
  return params;
}
