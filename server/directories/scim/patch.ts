/**
 * SCIM PATCH (RFC 7644 §3.5.2) as Okta and Entra ID send it: ops in any case (`"Replace"`),
 * path-less value objects (whose keys may themselves be paths, as Entra ID sends
 * `"name.givenName"`), `"True"`/`"False"` for booleans, filtered paths
 * (`emails[type eq "work"].value`, `members[value eq "…"]`), extension paths, and member lists
 * removed by value. Pure: a canonical resource in, a new one out.
 */
import { invalidSyntax, invalidValue, mutability, noTarget, tooMany } from "./errors.ts";
import { parsePatchPath } from "./filter.ts";
import { assertListSizes, countValues, MAX_OPERATION_VALUES, MAX_PATCH_OPERATIONS } from "./limits.ts";
import { MemberSet } from "./patch-lists.ts";
import { keyOf, Target } from "./patch-target.ts";
import { coreSchemaOf, isObject, knownSchemaUrn, lookupAttribute, type ResourceKind } from "./schema.ts";

type Json = Record<string, unknown>;

export const PATCH_OP_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const OPS = ["add", "remove", "replace"] as const;

export interface PatchOperation {
  op: "add" | "remove" | "replace";
  path?: string;
  value?: unknown;
}

/**
 * Validates a PatchOp body (schemas must include urn:ietf:params:scim:api:messages:2.0:PatchOp; ops
 * in any case → lowercase). 400 invalidSyntax otherwise; 400 tooMany past MAX_PATCH_OPERATIONS
 * operations or MAX_OPERATION_VALUES values in one.
 */
export function parsePatchRequest(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw invalidSyntax("The body must be a PatchOp object");
  const schemas = body[keyOf(body, "schemas") ?? "schemas"];
  if (!Array.isArray(schemas) || !schemas.some((urn) => typeof urn === "string" && urn.toLowerCase() === PATCH_OP_SCHEMA.toLowerCase()))
    throw invalidSyntax(`schemas must include ${PATCH_OP_SCHEMA}`);
  const operations = body[keyOf(body, "Operations") ?? "Operations"];
  if (!Array.isArray(operations) || operations.length === 0) throw invalidSyntax("Operations must be a non-empty list");
  if (operations.length > MAX_PATCH_OPERATIONS)
    throw tooMany(`Operations has ${operations.length} operations: at most ${MAX_PATCH_OPERATIONS} in one request`);
  return operations.map((raw: unknown, index) => {
    const where = `Operations[${index}]`;
    if (!isObject(raw)) throw invalidSyntax(`${where} must be an object`);
    const op = raw[keyOf(raw, "op") ?? "op"];
    const lower = typeof op === "string" ? op.toLowerCase() : "";
    if (!(OPS as readonly string[]).includes(lower)) throw invalidSyntax(`${where}.op must be add, remove or replace`);
    const path = raw[keyOf(raw, "path") ?? "path"];
    if (path !== undefined && path !== null && typeof path !== "string") throw invalidSyntax(`${where}.path must be a string`);
    const valueKey = keyOf(raw, "value");
    if (lower !== "remove" && valueKey === undefined) throw invalidSyntax(`${where} (${lower}) needs a value`);
    const values = valueKey === undefined ? 0 : countValues(raw[valueKey], MAX_OPERATION_VALUES);
    if (values > MAX_OPERATION_VALUES)
      throw tooMany(`${where}.value has more than ${MAX_OPERATION_VALUES} values: at most ${MAX_OPERATION_VALUES} in one operation`);
    return {
      op: lower as PatchOperation["op"],
      ...(typeof path === "string" && path.trim() !== "" ? { path } : {}),
      ...(valueKey !== undefined ? { value: raw[valueKey] } : {}),
    };
  });
}

/**
 * Applies the operations to a canonical resource (a Group's `members` as [{value, display?}] in
 * it), answering a new canonical resource; the input is not mutated. Throws ScimError
 * (invalidPath, noTarget, invalidValue, mutability for `id`/`meta`, tooMany for a list past
 * MAX_ATTRIBUTE_VALUES). Linear in the values given and present: a Group's members are held by id
 * (MemberSet) while the operations run.
 */
export function applyPatch(kind: ResourceKind, resource: Json, operations: PatchOperation[]): Json {
  const patch = new ResourcePatch(kind, resource);
  for (const operation of operations) patch.apply(operation);
  return patch.finish();
}

/** How long applyPatchInTurns runs before it lets the event loop serve others. */
const TURN_MS = 5;

/**
 * Lets the event loop serve what is waiting before going on: a whole turn of it, timers and I/O
 * (setImmediate from an I/O callback would come back before the timers).
 */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * applyPatch, letting the event loop serve other requests whenever it has run TURN_MS: a group's
 * PATCH may run 100 operations over tens of thousands of members (a filter tests each one).
 */
export async function applyPatchInTurns(kind: ResourceKind, resource: Json, operations: PatchOperation[]): Promise<Json> {
  let since = performance.now();
  const turn = async () => {
    if (performance.now() - since <= TURN_MS) return;
    await nextTurn();
    since = performance.now();
  };
  const patch = new ResourcePatch(kind, resource);
  for (const operation of operations) {
    await turn();
    patch.apply(operation);
  }
  await turn();
  return patch.finish();
}

/** A copy of a resource, changed an operation at a time. */
class ResourcePatch {
  private readonly result: Json;

  constructor(
    readonly kind: ResourceKind,
    resource: Json,
  ) {
    this.result = copyOf(kind, resource);
  }

  apply(operation: PatchOperation) {
    new Patcher(this.kind, this.result, operation.op).apply(operation.path, operation.value);
  }

  finish(): Json {
    const { result } = this;
    // Back to a list ([] when there were none and none came; an operation leaving none removed the attribute).
    if (result.members instanceof MemberSet) result.members = result.members.values();
    // Lists past their cap that no list of the schema held (an unknown attribute, a `urn:…` object).
    assertListSizes(this.kind, result, Infinity);
    return result;
  }
}

/**
 * A deep copy, but for a Group's members: a copy of each (an operation changes a member's own
 * keys, never deeper), held by id from the start.
 */
function copyOf(kind: ResourceKind, resource: Json): Json {
  if (kind !== "Group" || !Array.isArray(resource.members)) return structuredClone(resource);
  const { members, ...rest } = resource as { members: unknown[] };
  const held = new MemberSet();
  for (const member of members) held.add(isObject(member) ? { ...member } : member);
  return { ...structuredClone(rest), members: held };
}

const REQUIRED: Record<ResourceKind, string> = { User: "userName", Group: "displayName" };

class Patcher {
  constructor(
    readonly kind: ResourceKind,
    readonly resource: Json,
    readonly op: PatchOperation["op"],
  ) {}

  apply(path: string | undefined, value: unknown) {
    const core = coreSchemaOf(this.kind);
    const urn = path === undefined ? core : knownSchemaUrn(this.kind, path.trim());
    if (urn === null) return this.at(path!, value);
    if (this.op === "remove") {
      if (urn === core) throw noTarget("A remove operation needs a path");
      delete this.resource[urn];
      return;
    }
    // No path (or a whole schema's URN): the value is a set of attributes, each applied at its
    // own path. Entra ID puts paths in the keys ("name.givenName", "urn:…:User:department").
    if (!isObject(value)) throw invalidValue("Without a path, the value must be an object of attributes");
    for (const [key, item] of Object.entries(value)) {
      // Okta's group rename sends the group's own id along with displayName: not a change.
      if (urn === core && /^(id|meta|schemas)$/i.test(key)) continue;
      const schema = knownSchemaUrn(this.kind, key);
      if (urn === core && schema !== null) this.apply(key, item);
      else if (urn === core && key.toLowerCase().startsWith("urn:") && isObject(item)) this.opaque(key, item);
      else this.at(urn === core ? key : `${urn}:${key}`, item);
    }
  }

  /** An object under a URN we don't know: kept as given, merged like a complex attribute. */
  opaque(key: string, item: Json) {
    const existing = keyOf(this.resource, key) ?? key;
    const current = this.resource[existing];
    this.resource[existing] = this.op === "add" && isObject(current) ? { ...current, ...item } : item;
  }

  at(text: string, value: unknown) {
    const { path, filter, sub } = parsePatchPath(text);
    const core = coreSchemaOf(this.kind);
    const urn = path.urn === null ? core : knownSchemaUrn(this.kind, path.urn);
    const attribute = urn === null ? null : lookupAttribute(this.kind, urn === core ? null : urn, path.attr);
    if (attribute?.mutability === "readOnly") throw mutability(`${attribute.name} is read-only`);
    if (attribute?.mutability === "writeOnly") return; // a password: never kept here
    const required = urn === core && attribute?.name === REQUIRED[this.kind];
    if (required && sub === null && path.sub === null && (this.op === "remove" || value === null))
      throw mutability(`${attribute!.name} is required and cannot be removed`);

    const containerKey = urn === core ? null : (urn ?? keyOf(this.resource, path.urn!) ?? path.urn!);
    const found = containerKey === null ? this.resource : this.resource[containerKey];
    if (!isObject(found) && this.op === "remove") return;
    const container: Json = isObject(found) ? found : {};
    if (containerKey !== null) this.resource[containerKey] = container;
    const key = attribute?.name ?? keyOf(container, path.attr) ?? path.attr;
    const target = new Target(container, key, attribute, this.op);
    if (filter) target.filtered(filter, sub, value, text);
    else if (path.sub !== null) target.sub(path.sub, value);
    else target.whole(value);
    if (containerKey !== null && Object.keys(container).length === 0) delete this.resource[containerKey];
  }
}
