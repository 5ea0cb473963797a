/** Builds the tRPC context for the REST API (bearer token) and the console (session cookie). */
import { database } from "../db/client.ts";
import { authenticateBearer, authenticateSession, type Authentication } from "../auth/credentials.ts";
import { publicUrl, requestInfo } from "../contract/request.ts";
import type { Context } from "./context.ts";

/**
 * `auth`: the caller when the edge has already authenticated it (and counted it, for the rate
 * limit); `url`: the request's public URL when the edge has already worked it out.
 */
export async function createRestContext(req: Request, requestId: string, auth?: Authentication, url = publicUrl(req)): Promise<Context> {
  const db = await database();
  const { principal, authError } = auth ?? (await authenticateBearer(db, req));
  return { db, request: requestInfo(req, requestId), url, response: { headers: {} }, principal, authError };
}

export async function createConsoleContext(req: Request, requestId: string): Promise<Context> {
  const db = await database();
  const { principal, authError } = await authenticateSession(db, req);
  return { db, principal, authError, request: requestInfo(req, requestId), url: publicUrl(req), response: { headers: {} } };
}
