/**
 * The audit export's COPY path (server/audit/export.ts picks it for CSV on Postgres): the
 * snapshot's query as one COPY streamed from a pooled connection, a few exports at a time, and
 * dropped when its client stops reading.
 */
import type { Readable as NodeReadable } from "node:stream";
import pg from "pg";
import type { Database } from "../db/client.ts";
import { log, errorFields } from "../log.ts";

/** At most this many exports hold a pooled connection for a COPY at once; more use keyset batches. */
const MAX_COPY_EXPORTS = 3;
/** A COPY export whose client has not asked for more in this long is dropped (its connection freed). */
const COPY_IDLE_MS = 60_000;
let copyExports = 0;

/** Whether another export may hold a pooled connection for a COPY now. */
export const copySlotFree = () => copyExports < MAX_COPY_EXPORTS;

/** COPY takes no bind parameters: the filter's values go in as escaped literals. */
function inline(text: string, params: unknown[]): string {
  const literal = (value: unknown): string =>
    Array.isArray(value)
      ? `ARRAY[${value.map(literal).join(", ")}]`
      : pg.escapeLiteral(value instanceof Date ? value.toISOString() : String(value));
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

/**
 * Postgres, CSV: the snapshot as one `COPY (SELECT …) TO STDOUT (FORMAT csv, HEADER)`, streamed
 * straight from the connection to the response with backpressure. Postgres writes the CSV (RFC
 * 4180 quoting) and applies the formula guard; the rows never become JavaScript objects, so a
 * million rows cost the app almost no CPU or memory.
 */
export async function copyStream(
  copyOut: NonNullable<Database["copyOut"]>,
  query: { text: string; params: unknown[] },
  requestId: string,
): Promise<ReadableStream<Uint8Array>> {
  copyExports++;
  let stream: NodeReadable;
  try {
    stream = await copyOut(`COPY (${inline(query.text, query.params)}) TO STDOUT WITH (FORMAT csv, HEADER true)`);
  } catch (error) {
    copyExports--;
    throw error;
  }
  stream.once("close", () => copyExports--);
  stream.on("error", (error) => {
    if (!stalled) log.error("audit export failed while streaming", { request_id: requestId, ...errorFields(error) });
  });
  // A client that stays connected but stops reading would hold the connection for ever.
  let stalled = false;
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      stalled = true;
      log.warn("audit export dropped: the client stopped reading", { request_id: requestId });
      stream.destroy(new Error("export client stalled"));
    }, COPY_IDLE_MS);
    idle.unref();
  };
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  arm();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        arm();
        try {
          const { done, value } = await chunks.next();
          if (done) {
            clearTimeout(idle);
            controller.close();
          } else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } catch (error) {
          clearTimeout(idle);
          controller.error(error);
        }
      },
      cancel() {
        clearTimeout(idle);
        stream.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}
