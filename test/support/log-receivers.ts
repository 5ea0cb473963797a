/**
 * Local HTTP receivers that speak the Datadog Logs intake v2 and the Splunk HTTP Event Collector
 * as their vendors document them: the auth header, the body's shape, the size limits (413), the
 * answers' bodies and codes, and HEC's indexer acknowledgement channel. Tests script failures
 * (429 with Retry-After, 5xx, a busy HEC) by pushing answers on `script`, used one per request
 * before anything else. The vendors' own clients are checked against them first
 * (log-receivers-vendors.test.ts), so the sinks' tests against them mean something.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gunzipSync, inflateSync } from "node:zlib";

export interface Scripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer this much later (a slow receiver). */
  delayMs?: number;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Incoming {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  url: string;
  /** Answers to give, in order, one per request, before the intake's own handling (null: handle it as usual). */
  script: (Scripted | null)[];
  /** Every request, with its answer's status. */
  requests: { path: string; headers: http.IncomingHttpHeaders; bytes: number; status: number }[];
  close(): Promise<void>;
}

async function serve(handle: (req: Incoming) => Answer, receiver: Omit<Receiver, "url" | "close">): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://receiver");
      const incoming = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      const scripted = receiver.script.shift();
      const answer = scripted ? { body: "", ...scripted } : handle(incoming);
      receiver.requests.push({ path: incoming.path, headers: req.headers, bytes: incoming.body.length, status: answer.status });
      const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, {
          "content-type": typeof answer.body === "string" ? "text/plain" : "application/json",
          ...answer.headers,
        });
        res.end(text);
      };
      if (scripted?.delayMs) setTimeout(send, scripted.delayMs).unref();
      else send();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

// ---------------------------------------------------------------------------------------------
// Datadog: POST /api/v2/logs, DD-API-KEY, a JSON array (or one object), gzip or deflate allowed.
// 5 MB uncompressed per payload (413), 1,000 entries per array, entries over 1 MB truncated.

export const DATADOG_INTAKE_LIMITS = { payloadBytes: 5_000_000, entryBytes: 1_000_000, entries: 1000 };

export interface DatadogIntake extends Receiver {
  /** Accepted entries, in arrival order, with the request they came in. */
  logs: { entry: Record<string, unknown>; request: number; truncated: boolean }[];
}

const ddError = (status: number, title: string, detail: string): Answer => ({
  status,
  body: { errors: [{ status: String(status), title, detail }] },
});

export async function startDatadogIntake(options: { apiKey: string }): Promise<DatadogIntake> {
  const state = { script: [] as (Scripted | null)[], requests: [] as Receiver["requests"], logs: [] as DatadogIntake["logs"] };
  const receiver = await serve((req) => {
    if (req.method !== "POST" || req.path !== "/api/v2/logs") return ddError(404, "Not Found", "no such endpoint");
    const key = req.headers["dd-api-key"];
    if (!key) return ddError(401, "Unauthorized", "API key is missing");
    if (key !== options.apiKey) return ddError(403, "Forbidden", "Invalid API Key");
    let raw: Buffer;
    try {
      const encoding = req.headers["content-encoding"];
      raw = encoding === "gzip" ? gunzipSync(req.body) : encoding === "deflate" ? inflateSync(req.body) : req.body;
    } catch {
      return ddError(400, "Bad Request", "the body could not be decompressed");
    }
    if (raw.length > DATADOG_INTAKE_LIMITS.payloadBytes) return ddError(413, "Payload Too Large", "batch is above 5MB uncompressed");
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString("utf8"));
    } catch {
      return ddError(400, "Bad Request", "the body is not JSON");
    }
    const entries = Array.isArray(parsed) ? parsed : [parsed];
    if (entries.length > DATADOG_INTAKE_LIMITS.entries) return ddError(400, "Bad Request", "more than 1000 entries in the array");
    if (entries.some((e) => !e || typeof e !== "object" || Array.isArray(e))) return ddError(400, "Bad Request", "entries must be objects");
    const request = state.requests.length;
    for (const entry of entries as Record<string, unknown>[]) {
      const truncated = Buffer.byteLength(JSON.stringify(entry), "utf8") > DATADOG_INTAKE_LIMITS.entryBytes;
      if (truncated && typeof entry.message === "string") entry.message = entry.message.slice(0, DATADOG_INTAKE_LIMITS.entryBytes / 2);
      state.logs.push({ entry, request, truncated });
    }
    return { status: 202, body: {} };
  }, state);
  return receiver as DatadogIntake;
}

// ---------------------------------------------------------------------------------------------
// Splunk HEC: POST /services/collector/event[/1.0], `Authorization: Splunk <token>`, JSON event
// objects concatenated; {"text","code"} answers with HEC's documented codes; with acknowledgement
// on, a channel (header X-Splunk-Request-Channel or ?channel=) is required and each request gets
// an ackId, which POST /services/collector/ack {"acks":[…]} reports true once indexed (then forgets).

export interface HecOptions {
  token: string;
  /** Indexer acknowledgement on for the token. */
  ack?: boolean;
  /** With ack: how long after receipt an ackId turns true (Infinity: never). */
  indexAfterMs?: number;
  /** max_content_length (413 above it). */
  maxContentLength?: number;
  /** The indexes the token may write to (code 7 otherwise); all when absent. */
  indexes?: string[];
}

export interface SplunkHec extends Receiver {
  events: { event: Record<string, unknown>; channel: string | null; ackId: number | null; request: number }[];
  /** Ack queries answered, with what was asked. */
  ackQueries: number[][];
}

const hec = (status: number, code: number, text: string, extra: Record<string, unknown> = {}): Answer => ({
  status,
  body: { text, code, ...extra },
});
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startSplunkHec(options: HecOptions): Promise<SplunkHec> {
  const maxContentLength = options.maxContentLength ?? 1_000_000;
  const channels = new Map<string, { next: number; pending: Map<number, number> }>();
  const state = {
    script: [] as (Scripted | null)[],
    requests: [] as Receiver["requests"],
    events: [] as SplunkHec["events"],
    ackQueries: [] as number[][],
  };

  const authorize = (req: Incoming): Answer | null => {
    const header = req.headers.authorization;
    if (!header) return hec(401, 2, "Token is required");
    const match = /^Splunk (\S+)$/.exec(header);
    if (!match) return hec(401, 3, "Invalid authorization");
    if (match[1] !== options.token) return hec(403, 4, "Invalid token");
    return null;
  };
  const channelOf = (req: Incoming): { channel: string | null; refusal: Answer | null } => {
    const channel = (req.headers["x-splunk-request-channel"] as string | undefined) ?? req.query.get("channel");
    if (!options.ack) return { channel, refusal: null };
    if (!channel) return { channel, refusal: hec(400, 10, "Data channel is missing") };
    if (!GUID.test(channel)) return { channel, refusal: hec(400, 11, "Invalid data channel") };
    return { channel, refusal: null };
  };

  const receiver = await serve((req) => {
    if (req.method !== "POST") return hec(404, 404, "The requested URL was not found on this server.");
    const refused = authorize(req);
    if (refused) return refused;
    if (req.path === "/services/collector/ack") {
      if (!options.ack) return hec(400, 14, "ACK is disabled");
      const { channel, refusal } = channelOf(req);
      if (refusal) return refusal;
      let asked: unknown;
      try {
        asked = (JSON.parse(req.body.toString("utf8")) as { acks?: unknown }).acks;
      } catch {
        asked = null;
      }
      if (!Array.isArray(asked) || !asked.every((id) => Number.isInteger(id))) return hec(400, 6, "Invalid data format");
      state.ackQueries.push(asked as number[]);
      const pending = channels.get(channel!)?.pending ?? new Map<number, number>();
      const acks: Record<string, boolean> = {};
      for (const id of asked as number[]) {
        const readyAt = pending.get(id);
        acks[String(id)] = readyAt !== undefined && Date.now() >= readyAt;
        if (acks[String(id)]) pending.delete(id);
      }
      return { status: 200, body: { acks } };
    }
    if (!["/services/collector", "/services/collector/event", "/services/collector/event/1.0"].includes(req.path)) {
      return hec(404, 404, "The requested URL was not found on this server.");
    }
    if (req.body.length > maxContentLength) {
      return { status: 413, body: `Content-Length of ${req.body.length} too large (maximum is ${maxContentLength})` };
    }
    const { channel, refusal } = channelOf(req);
    if (refusal) return refusal;
    const parsed = concatenatedObjects(req.body.toString("utf8"));
    if (parsed === "empty") return hec(400, 5, "No data");
    if (!Array.isArray(parsed)) return hec(400, 6, "Invalid data format", { "invalid-event-number": parsed.invalidAt });
    for (const [i, event] of parsed.entries()) {
      const invalid = checkEvent(event, options.indexes);
      if (invalid) return hec(400, invalid.code, invalid.text, { "invalid-event-number": i });
    }
    const request = state.requests.length;
    let ackId: number | null = null;
    if (options.ack) {
      const acks = channels.get(channel!) ?? { next: 0, pending: new Map<number, number>() };
      channels.set(channel!, acks);
      ackId = acks.next++;
      acks.pending.set(ackId, Date.now() + (options.indexAfterMs ?? 0));
    }
    for (const event of parsed) state.events.push({ event, channel, ackId, request });
    return ackId === null ? hec(200, 0, "Success") : hec(200, 0, "Success", { ackId });
  }, state);
  return receiver as SplunkHec;
}

function checkEvent(event: Record<string, unknown>, indexes: string[] | undefined): { code: number; text: string } | null {
  if (!("event" in event)) return { code: 12, text: "Event field is required" };
  if (event.event === "" || event.event === null) return { code: 13, text: "Event field cannot be blank" };
  if ("time" in event && !(typeof event.time === "number" || (typeof event.time === "string" && /^\d+(\.\d+)?$/.test(event.time)))) {
    return { code: 6, text: "Invalid data format" };
  }
  if (event.index !== undefined && (typeof event.index !== "string" || (indexes && !indexes.includes(event.index)))) {
    return { code: 7, text: "Incorrect index" };
  }
  if (event.fields !== undefined) {
    const fields = event.fields;
    const flat = (v: unknown) =>
      typeof v === "string" || typeof v === "number" || (Array.isArray(v) && v.every((x) => typeof x === "string"));
    if (!fields || typeof fields !== "object" || Array.isArray(fields) || !Object.values(fields).every(flat)) {
      return { code: 15, text: "Error in handling indexed fields" };
    }
  }
  return null;
}

/** HEC's batch body: JSON objects one after another, whitespace allowed between them. */
function concatenatedObjects(text: string): Record<string, unknown>[] | "empty" | { invalidAt: number } {
  const objects: Record<string, unknown>[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    if (text[i] !== "{") return { invalidAt: objects.length };
    let depth = 0;
    let inString = false;
    let j = i;
    for (; j < text.length; j++) {
      const c = text[j];
      if (inString) {
        if (c === "\\") j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) break;
    }
    try {
      objects.push(JSON.parse(text.slice(i, j + 1)) as Record<string, unknown>);
    } catch {
      return { invalidAt: objects.length };
    }
    i = j + 1;
  }
  return objects.length === 0 ? "empty" : objects;
}
