/**
 * The event catalog (what each kind's payload looks like) and a tenant's events pulled by cursor
 * (the Events API): the same payloads webhooks deliver, for a client that runs no public endpoint.
 */
import { Resource, unwrap } from "../resource.js";
import type { Query, ReadOptions, Schema } from "../types.js";

export type EventsQuery = Query<"events-list">;

export class EventTypes extends Resource {
  /** Every kind the control plane emits, with its payload's JSON Schema and an example. */
  list(options: ReadOptions = {}) {
    return unwrap(this.http.GET("/event-types", this.read(options)));
  }
  get(name: string, options: ReadOptions = {}) {
    return unwrap(this.http.GET("/event-types/{name}", { params: { path: { name } }, ...this.read(options) }));
  }
}

export class Events extends Resource {
  /** One page from `after` (`wait` seconds, at most 30, long-polls until an event arrives). */
  page(tenantId: string, query: EventsQuery = {}, options: ReadOptions = {}) {
    // The server holds a long poll up to `wait` seconds before answering: the timeout counts from then.
    const { timeout } = this.ctx.transport;
    if (options.timeout === undefined && query.wait && timeout) options = { ...options, timeout: timeout + query.wait * 1000 };
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/events", { params: { path: { tenant_id: tenantId }, query }, ...this.read(options) }),
    );
  }

  /**
   * Every event from `after` on (from the oldest kept without it), in order, each once, and then
   * the new ones as they happen: a long poll of `wait` seconds (default 30) whenever it has caught
   * up. It never ends by itself: `break` out of the loop, or abort `signal`. `cursor()` is where to
   * resume after a restart: the start of the page being read, so events of that page may come again
   * (at least once: dedupe on the event's `id`, as with webhooks).
   */
  follow(tenantId: string, query: EventsQuery = {}, options: ReadOptions = {}): EventFeed {
    return new EventFeed((after) => this.page(tenantId, { ...query, after, wait: query.wait ?? 30 }, options), query.after);
  }
}

/** An endless feed of a tenant's events (Events.follow). */
export class EventFeed implements AsyncIterable<Schema<"Event">> {
  #after: string | undefined;

  constructor(
    private readonly read: (after: string | undefined) => Promise<Schema<"EventPage">>,
    after: string | undefined,
  ) {
    this.#after = after;
  }

  /** Where the feed stands: pass as `after` to resume (from the start of the page being read). */
  cursor(): string | undefined {
    return this.#after;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Schema<"Event">> {
    for (;;) {
      const page = await this.read(this.#after);
      for (const event of page.results) yield event;
      this.#after = page.next_cursor;
    }
  }
}
