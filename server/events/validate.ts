/**
 * Checks delivered payloads against the event catalog with a JSON Schema 2020-12 validator (ajv),
 * so what the catalog publishes is proven on real payloads, not only on its examples. Each kind's
 * validator is compiled once, on first use. The test set-up runs it on every event emitted
 * (test/support/setup.ts); production does not.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { jsonSchemaOf } from "./catalog/index.ts";
import { EVENT_TYPES, type EventType } from "./types.ts";

// Formats are spelled out as patterns by zod's JSON Schema too; ajv need not know their names.
const ajv = new Ajv2020({ allErrors: true, strict: true, formats: { "date-time": true, uuid: true, email: true } });
const compiled = new Map<EventType, ValidateFunction>();
const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

export const isCatalogKind = (kind: string): kind is EventType => KNOWN.has(kind);

function validatorOf(kind: EventType): ValidateFunction {
  let validate = compiled.get(kind);
  if (!validate) compiled.set(kind, (validate = ajv.compile(jsonSchemaOf(kind))));
  return validate;
}

/** The problems of a payload's `data` against its kind's schema; none for a kind outside the catalog. */
export function catalogProblems(kind: string, data: unknown): string[] {
  if (!isCatalogKind(kind)) return [];
  const validate = validatorOf(kind);
  if (validate(data)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`);
}
