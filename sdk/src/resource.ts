/** What every method group shares: the typed client, and unwrapping its answers into data or a ControlPlaneError. */
import { errorFromResponse } from "./errors.js";
import { Pages, type Page } from "./pagination.js";
import type { Transport } from "./transport.js";
import type { Http, ReadOptions, WriteOptions } from "./types.js";

export interface Context {
  http: Http;
  transport: Transport;
  /** The API's origin (`https://cp.example.com`). */
  origin: string;
}

/** The data of a successful answer; the answer's problem as a ControlPlaneError otherwise. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromResponse(response, error);
  return data as T;
}

export abstract class Resource {
  constructor(protected readonly ctx: Context) {}

  protected get http(): Http {
    return this.ctx.http;
  }

  /** What openapi-fetch gets of a read's options: the signal and, when the call has its own timeout, a fetch keeping it. */
  protected read(options: ReadOptions = {}) {
    const { timeout, signal } = options;
    return { signal, ...(timeout === undefined ? {} : { fetch: (request: Request) => this.ctx.transport.send(request, { timeout }) }) };
  }

  /** What openapi-fetch gets of a write's options: a read's, and the Idempotency-Key given. */
  protected write(options: WriteOptions = {}) {
    return { headers: options.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : {}, ...this.read(options) };
  }

  /** A list that follows `next` from its first page. */
  protected pages<T>(first: () => Promise<{ data?: Page<T>; error?: unknown; response: Response }>): Pages<T> {
    return new Pages(this.ctx.transport, this.ctx.origin, () => unwrap(first()));
  }

  /** A list read by cursor: `at(cursor)` fetches the page at a cursor, `at(undefined)` the first. */
  protected cursorPages<T>(at: (cursor: string | undefined) => Promise<{ data?: Page<T>; error?: unknown; response: Response }>): Pages<T> {
    return new Pages(
      this.ctx.transport,
      this.ctx.origin,
      () => unwrap(at(undefined)),
      (cursor) => unwrap(at(cursor)),
    );
  }
}
