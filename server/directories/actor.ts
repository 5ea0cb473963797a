/**
 * The actor of what an IdP does through SCIM: the directory itself (`directory:<id>`), from the
 * address its request came from.
 */
import type { RequestInfo } from "../auth/principal.ts";
import type { EventActor } from "../events/emit.ts";

export function directoryActor(directory: { id: string; name: string }, request: RequestInfo): EventActor {
  return { id: `directory:${directory.id}`, email: null, ip: request.ip, userAgent: request.userAgent };
}
