/** Names for the generated types (./schema.d.ts): what a call sends and what it gets. */
import type { Client } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };
/** A named schema of the API: `Schema<"Tenant">`. */
export type Schema<N extends keyof components["schemas"]> = components["schemas"][N];
/** The JSON body an operation takes: `Body<"tenants-create">`. */
export type Body<K extends keyof operations> = operations[K] extends { requestBody?: { content: { "application/json": infer B } } }
  ? B
  : never;
/** The query parameters an operation takes. */
export type Query<K extends keyof operations> = NonNullable<operations[K]["parameters"]["query"]>;
/** The typed openapi-fetch client over every path of the API (`cp.http`). */
export type Http = Client<paths>;

/** Options of a read (and of a DELETE). */
export interface ReadOptions {
  /** Aborts the call (and its retries): the signal's reason is thrown. */
  signal?: AbortSignal;
  /** This call's `timeout` in ms (each attempt's wait for an answer), over the client's; 0: none. */
  timeout?: number;
}

/** Options of a write: also the Idempotency-Key to send (one is generated otherwise). */
export interface WriteOptions extends ReadOptions {
  idempotencyKey?: string;
}
