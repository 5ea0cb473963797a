/**
 * Who may do what, decided in one place. Procedures (server/trpc/procedures.ts) and services ask
 * these questions; no route checks roles by hand.
 */
import type { Principal } from "./principal.ts";

/** Operators create tenants and act as admin everywhere. */
export function isOperator(principal: Principal): boolean {
  return principal.platformRole === "operator";
}

/** Operators and support staff see every tenant; other users only their own. */
export function seesAllTenants(principal: Principal): boolean {
  return principal.platformRole === "operator" || principal.platformRole === "support";
}

/** A read-only token may call no write operation, whatever its owner's roles. */
export function mayWrite(principal: Principal): boolean {
  return !principal.token?.readOnly;
}
