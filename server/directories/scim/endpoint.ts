/**
 * The SCIM 2.0 service provider at `/api/scim/v2/{directory_id}/…`: the directory's token, its
 * rate limit, then the handler the path and method name. This is the one place a ScimError
 * becomes an answer (RFC 7644 §3.12, `application/scim+json`), and every request a directory's
 * token opened is logged (request-log.ts), refusals included.
 */
import type { Database } from "../../db/client.ts";
import type { Directory as DirectoryRow } from "../../db/generated/client.ts";
import { directoryPolicy, hitAddress, limitedDetail, rateLimitHeaders, type Usage } from "../../auth/rate-limit.ts";
import { errorFields, log } from "../../log.ts";
import { directoryActor } from "../actor.ts";
import { authenticateDirectory, ScimUnauthorized } from "./auth.ts";
import type { Refusal } from "../lifecycle.ts";
import type { ScimContext } from "./context.ts";
import { ScimError, scimErrorBody, scimNotFound } from "./errors.ts";
import { getResourceType, getSchema, listResourceTypes, listSchemas, serviceProviderConfig } from "./discovery.ts";
import { createGroup, deleteGroup, getGroup, listGroupsOf, patchGroup, replaceGroup } from "./groups.ts";
import { createUser, deleteUser, getUser, listUsersOf, patchUser, replaceUser } from "./users.ts";
import { logScimRequest } from "./request-log.ts";
import { baseUrlOf } from "./resource.ts";
import { assertQueryText, scimResponse, type Outcome, type ScimRequest, type ScimResponse } from "./respond.ts";

type Handler = (ctx: ScimContext, id: string) => Outcome | Promise<Outcome>;
/** Per resource path: the handlers of the collection and of one of its members, by method. */
interface Endpoint {
  collection: Record<string, Handler>;
  member: Record<string, Handler>;
}

const ENDPOINTS: Record<string, Endpoint> = {
  users: {
    collection: { GET: listUsersOf, POST: createUser },
    member: { GET: getUser, PUT: replaceUser, PATCH: patchUser, DELETE: deleteUser },
  },
  groups: {
    collection: { GET: listGroupsOf, POST: createGroup },
    member: { GET: getGroup, PUT: replaceGroup, PATCH: patchGroup, DELETE: deleteGroup },
  },
  serviceproviderconfig: { collection: { GET: serviceProviderConfig }, member: {} },
  // The name Microsoft's SCIM reference server (and its test collection) uses.
  serviceconfiguration: { collection: { GET: serviceProviderConfig }, member: {} },
  resourcetypes: { collection: { GET: listResourceTypes }, member: { GET: getResourceType } },
  schemas: { collection: { GET: listSchemas }, member: { GET: getSchema } },
};

function dispatch(ctx: ScimContext, segments: string[]): Outcome | Promise<Outcome> {
  const [resource, id, ...more] = segments;
  const endpoint = resource ? ENDPOINTS[resource.toLowerCase()] : undefined;
  if (!endpoint || more.length) {
    if (resource?.toLowerCase() === "bulk") throw new ScimError(501, null, "Bulk operations are not supported");
    throw scimNotFound(`No SCIM endpoint at /${segments.join("/")}`);
  }
  const handlers = id === undefined ? endpoint.collection : endpoint.member;
  const handler = handlers[ctx.request.method];
  if (!handler) {
    if (!Object.keys(handlers).length) throw scimNotFound(`No SCIM endpoint at /${segments.join("/")}`);
    throw Object.assign(new ScimError(405, null, `${ctx.request.method} is not allowed here`), { allow: Object.keys(handlers).join(", ") });
  }
  return handler(ctx, id ?? "");
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "\0";
  }
};

export async function handleScim(db: Database, request: ScimRequest): Promise<ScimResponse> {
  const started = performance.now();
  const [directoryId = "", ...segments] = request.path.split("/").filter(Boolean).map(decode);
  let directory: DirectoryRow | null = null;
  /** The directory whose sync activity records this request (a disabled one's refusals too). */
  let logged: DirectoryRow | null = null;
  let usage: Usage | null = null;
  let outcome: Outcome;
  try {
    try {
      directory = await authenticateDirectory(db, directoryId, request.bearer);
    } catch (error) {
      // Callers without a valid token are counted by address, as on /api/v1.
      usage = await hitAddress(db.sql, request.info.ip);
      if (error instanceof ScimUnauthorized) logged = error.disabledDirectory;
      throw usage?.limited ? new ScimError(429, null, limitedDetail(usage)) : error;
    }
    logged = directory;
    usage = await hitAddress(db.sql, directory.id, directoryPolicy());
    if (usage?.limited) throw new ScimError(429, null, limitedDetail(usage));
    const ctx: ScimContext = {
      db,
      directory,
      actor: directoryActor(directory, request.info),
      base: baseUrlOf(request.origin, directory.id),
      request,
      refusals: [],
    };
    assertQueryText(request.query);
    outcome = withRefusals(await dispatch(ctx, segments), ctx.refusals);
  } catch (error) {
    outcome = { response: errorAnswer(error, request) };
  }
  const response = outcome.response;
  if (usage) Object.assign(response.headers, rateLimitHeaders(usage));
  if (logged) {
    // As sent (still percent-encoded): a decoded %00 could not be stored.
    const path = `/${request.path.split("/").filter(Boolean).slice(1).join("/")}`;
    await logScimRequest(db.sql, {
      directoryId: logged.id,
      method: request.method,
      path,
      status: response.status,
      durationMs: performance.now() - started,
      summary: summaryOf(request.method, path, outcome),
      scimType: response.status >= 400 ? ((response.body as { scimType?: string } | null)?.scimType ?? null) : null,
    }).catch((error: unknown) => log.error("SCIM request log failed", errorFields(error)));
  }
  return response;
}

function errorAnswer(error: unknown, request: ScimRequest): ScimResponse {
  if (!(error instanceof ScimError)) {
    log.error("unhandled error in the SCIM endpoint", { ...errorFields(error), method: request.method, requestId: request.info.requestId });
    return scimResponse(500, scimErrorBody(new ScimError(500, null, `Internal error (request ${request.info.requestId})`)));
  }
  const headers: Record<string, string> = {};
  if (error instanceof ScimUnauthorized) headers["WWW-Authenticate"] = 'Bearer realm="SCIM"';
  const allow = (error as { allow?: string }).allow;
  if (allow) headers.Allow = allow;
  return scimResponse(error.status, scimErrorBody(error), headers);
}

/** The request's log line names each change the last-admin rule refused (also audited as `directory_user.deprovision_refused`). */
function withRefusals(outcome: Outcome, refusals: readonly Refusal[]): Outcome {
  if (refusals.length === 0) return outcome;
  const who = [...new Set(refusals.map((r) => r.email))].join(", ");
  const said = `deprovision refused: ${who} is the tenant's last admin, the membership stays`;
  return { ...outcome, note: outcome.note ? `${outcome.note} (${said})` : `(${said})` };
}

/** `POST /Users alice@example.com → 201`, `GET /Users filter=… → 1 result`, `PATCH /Users/… → 400 invalidPath: …`. */
function summaryOf(method: string, path: string, { response, note }: Outcome): string {
  const head = `${method} ${path}`;
  if (response.status >= 400) {
    const body = response.body as { scimType?: string; detail?: string } | null;
    return `${head} → ${response.status}${body?.scimType ? ` ${body.scimType}` : ""}: ${body?.detail ?? ""}`;
  }
  if (note?.startsWith("→") || note?.includes(" → ")) return `${head} ${note}`;
  return `${head}${note ? ` ${note}` : ""} → ${response.status}`;
}
