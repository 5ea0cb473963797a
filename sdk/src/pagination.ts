/**
 * Lists as async iterables: `for await (const tenant of cp.tenants.list({ page_size: 100 }))` reads
 * page after page, following each page's `next` link (offset style) or its `next_cursor` (cursor
 * style: the audit log, whose pages stay stable while new events arrive).
 */
import { errorFromFailedResponse } from "./errors.js";
import type { Transport } from "./transport.js";

/** The envelope of every list (docs/api.md: Pagination). */
export interface Page<T> {
  results: T[];
  count: number;
  next: string | null;
  previous: string | null;
  next_cursor: string | null;
  previous_cursor: string | null;
}

export type PageStyle = "next" | "cursor";

export class Pages<T> implements AsyncIterable<T> {
  /**
   * `first` fetches the first page; `byCursor` fetches the page at a cursor (cursor style). Offset
   * style follows `next` through `transport`.
   */
  constructor(
    private readonly transport: Transport,
    /** The client's origin: `next` is followed there, whatever host the server's link names (the token goes nowhere else). */
    private readonly origin: string,
    private readonly first: () => Promise<Page<T>>,
    private readonly byCursor?: (cursor: string) => Promise<Page<T>>,
  ) {}

  /** The first page alone (`count` is the total). */
  page(): Promise<Page<T>> {
    return this.first();
  }

  /** Every page in turn. */
  async *pages(): AsyncGenerator<Page<T>> {
    let page = await this.first();
    for (;;) {
      yield page;
      if (this.byCursor) {
        if (!page.next_cursor || page.results.length === 0) return;
        page = await this.byCursor(page.next_cursor);
      } else {
        if (!page.next) return;
        page = await this.#follow(page.next);
      }
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.results;
  }

  /** Every item, read into an array (for small lists). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }

  async #follow(url: string): Promise<Page<T>> {
    const link = new URL(url);
    const response = await this.transport.send(
      new Request(new URL(link.pathname + link.search, this.origin), { headers: { accept: "application/json" } }),
    );
    if (!response.ok) throw await errorFromFailedResponse(response);
    return (await response.json()) as Page<T>;
  }
}
