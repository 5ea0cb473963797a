/**
 * A TCP proxy in front of Postgres that counts what clients send: statements (simple Query and
 * extended-protocol Execute messages), round trips (Query and Sync: each waits for the server's
 * ReadyForQuery) and the text of each statement. Profiling only: it tells how many statements
 * a request costs without pg_stat_statements (which needs a server restart to load).
 */
import net from "node:net";

export interface Counts {
  statements: number;
  roundTrips: number;
  /** Statement text (whitespace collapsed, cut at 120 characters) → times executed. */
  texts: Map<string, number>;
}

export interface PgProxy {
  port: number;
  counts: Counts;
  reset(): void;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

const short = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 120);

export function startPgProxy(upstream: { host: string; port: number }): Promise<PgProxy> {
  const counts: Counts = { statements: 0, roundTrips: 0, texts: new Map() };
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const backend = net.connect(upstream.port, upstream.host);
    sockets.add(client).add(backend);
    let buffer: Buffer = Buffer.alloc(0);
    let startup = true;
    // Statement names → text, so an Execute of a named prepared statement is attributed.
    const prepared = new Map<string, string>();
    let lastParsed = "";

    const consume = () => {
      for (;;) {
        if (startup) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          if (code !== SSL_REQUEST && code !== GSS_REQUEST) startup = false;
          buffer = buffer.subarray(length);
          continue;
        }
        if (buffer.length < 5) return;
        const type = String.fromCharCode(buffer[0]!);
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) return;
        const body = buffer.subarray(5, 1 + length);
        if (type === "Q") {
          const text = short(body.toString("utf8", 0, body.length - 1));
          counts.statements += 1;
          counts.roundTrips += 1;
          counts.texts.set(text, (counts.texts.get(text) ?? 0) + 1);
        } else if (type === "P") {
          const nameEnd = body.indexOf(0);
          const name = body.toString("utf8", 0, nameEnd);
          const text = short(body.toString("utf8", nameEnd + 1, body.indexOf(0, nameEnd + 1)));
          lastParsed = text;
          if (name) prepared.set(name, text);
        } else if (type === "B") {
          const portalEnd = body.indexOf(0);
          const name = body.toString("utf8", portalEnd + 1, body.indexOf(0, portalEnd + 1));
          if (name) lastParsed = prepared.get(name) ?? lastParsed;
        } else if (type === "E") {
          counts.statements += 1;
          counts.texts.set(lastParsed, (counts.texts.get(lastParsed) ?? 0) + 1);
        } else if (type === "S") {
          counts.roundTrips += 1;
        }
        buffer = buffer.subarray(1 + length);
      }
    };

    client.on("data", (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      consume();
      backend.write(chunk);
    });
    backend.pipe(client);
    const close = () => {
      client.destroy();
      backend.destroy();
      sockets.delete(client);
      sockets.delete(backend);
    };
    client.on("close", close).on("error", close);
    backend.on("close", close).on("error", close);
  });

  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        counts,
        reset() {
          counts.statements = 0;
          counts.roundTrips = 0;
          counts.texts.clear();
        },
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
