/**
 * Every /api/v1 response the integration tests receive through the test server (api.ts) is checked
 * against the OpenAPI document: its status must be one the operation documents, its media type one
 * documented for that status, and a JSON body must validate against that response's schema (ajv,
 * JSON Schema 2020-12, formats included). Violations are kept and fail the test file at its end
 * (setup.ts), each naming the request, so a response and its documentation cannot drift apart.
 *
 * Requests no operation answers (an unknown path, a method the path lacks, the document itself) are
 * the edge's, not an operation's, and are not checked here (rest-contract.test.ts covers them).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { openApiDocument } from "../../server/http/openapi.ts";
import { exactOperationAt } from "../../server/http/operations.ts";
import { recordViolation, track } from "./response-violations.ts";

type Json = Record<string, unknown>;

interface DocumentedResponse {
  $ref?: string;
  content?: Record<string, { schema?: Json }>;
}

const API_PREFIX = "/api/v1";
const DOC_ID = "https://control-plane.test/openapi.json";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

let document: Json | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function doc(): Json {
  if (!document) {
    document = openApiDocument("http://localhost") as unknown as Json;
    // OpenAPI 3.1 schemas are JSON Schema 2020-12; `#/components/…` references resolve in the
    // document, added whole under an id. Formats are checked as the document states them.
    ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      formats: {
        uuid: UUID,
        "date-time": (value: string) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
        uri: (value: string) => URL.canParse(value),
        email: /^[^\s@]+@[^\s@]+$/,
        // The audit export's `format` parameter names a file type, not a string format.
        csv: true,
      },
    });
    ajv.addSchema(document, DOC_ID);
  }
  return document;
}

/** The response documented for `status`, a reference to `components.responses` followed. */
function documentedResponse(responses: Record<string, DocumentedResponse>, status: number): DocumentedResponse | undefined {
  const found = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
  if (!found?.$ref) return found;
  const components = doc().components as { responses: Record<string, DocumentedResponse> };
  return components.responses[found.$ref.slice(found.$ref.lastIndexOf("/") + 1)];
}

/** The validator of one documented body, compiled once per process. */
function validatorOf(key: string, schema: Json): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`)) as Json;
    validators.set(key, (validate = ajv!.compile(rooted)));
  }
  return validate;
}

const mediaTypeOf = (response: Response) => (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
const isJson = (mediaType: string) => mediaType === "application/json" || mediaType.endsWith("+json");

async function check(label: string, template: string, method: string, response: Response): Promise<void> {
  const paths = doc().paths as Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;
  const documented = documentedResponse(paths[template]![method.toLowerCase()]!.responses, response.status);
  if (!documented) return void recordViolation(`${label} → ${response.status}: the operation documents no ${response.status}`);
  const mediaType = mediaTypeOf(response);
  const content = documented.content ?? {};
  if (!mediaType) {
    const text = response.body ? await response.text() : "";
    if (text) recordViolation(`${label} → ${response.status}: a body without a content type`);
    return;
  }
  const media = content[mediaType];
  if (!media) {
    const listed = Object.keys(content).join(", ") || "no body";
    return void recordViolation(`${label} → ${response.status}: ${mediaType} is not documented (documented: ${listed})`);
  }
  if (!isJson(mediaType) || !media.schema) return;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return void recordViolation(`${label} → ${response.status}: not JSON: ${text.slice(0, 120)}`);
  }
  const validate = validatorOf(`${method} ${template} ${response.status} ${mediaType}`, media.schema);
  if (validate(body)) return;
  const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
  recordViolation(`${label} → ${response.status}: the body does not match its schema: ${errors.join("; ")}`);
}

/**
 * Checks a response the test server is about to send for `method` `pathname`: it reads a clone of
 * the body (JSON only), so the response itself is sent untouched. HEAD is answered without a body.
 */
export function checkResponse(method: string, pathname: string, response: Response): void {
  if (!pathname.startsWith(`${API_PREFIX}/`) || method === "HEAD") return;
  const operation = exactOperationAt(method, pathname.slice(API_PREFIX.length).split("/").filter(Boolean));
  if (!operation) return;
  const label = `${method} ${pathname}`;
  const readable = isJson(mediaTypeOf(response)) || !mediaTypeOf(response);
  track(
    check(label, operation.template, method, readable ? response.clone() : response).catch((error: unknown) =>
      recordViolation(`${label} → ${response.status}: could not be checked: ${String(error)}`),
    ),
  );
}
