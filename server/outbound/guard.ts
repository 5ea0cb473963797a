/**
 * The SSRF guard: every outbound HTTP call (SSO metadata, webhooks) goes through `safeFetch`.
 * The host is resolved once and every address checked: loopback, private, link-local, cloud
 * metadata and other special ranges are refused unless OUTBOUND_ALLOW_PRIVATE=true, and the
 * connection is made to the checked address (no second lookup to rebind). Connections are kept
 * alive and reused only for the same host and checked address (see `pooledAgent`). Public targets
 * must be https. No redirects are followed; a deadline covers the whole exchange; the body is capped.
 */
import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { env } from "../env.ts";
import { isPrivateAddress, isPrivateName, normaliseHost } from "./hosts.ts";
import { PRIVATE_REFUSED } from "./schemas.ts";

export type OutboundFailure = "invalid_url" | "blocked" | "timeout" | "too_large" | "network" | "redirect";

export class OutboundError extends Error {
  override name = "OutboundError";
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  maxBytes: number;
}

export interface SafeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The address actually connected to. */
  address: string;
}

/** Checks a URL before any connection: scheme, and private hosts when not allowed. */
export function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError("invalid_url", "not an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new OutboundError("invalid_url", "only http(s) URLs are allowed");
  if (url.username || url.password) throw new OutboundError("invalid_url", "URLs with credentials are not allowed");
  return url;
}

/**
 * Resolves a host once and checks every address: refused (`blocked`) when any is private (or the
 * name is a private one, ./hosts.ts) and OUTBOUND_ALLOW_PRIVATE is off. The host is read as the
 * URL parser reads it, so every spelling of an address is the address. The caller connects to the
 * address returned, never to the name again (no second lookup to rebind). For non-HTTP outbound
 * calls too (syslog over TCP).
 */
export async function resolveChecked(hostname: string): Promise<{ address: string; family: number; private: boolean }> {
  const host = normaliseHost(hostname);
  if (host === null) throw new OutboundError("invalid_url", `${hostname} is not a host name or IP address`);
  const allowPrivate = env().OUTBOUND_ALLOW_PRIVATE;
  const refused = () => new OutboundError("blocked", `${host} resolves to a private or loopback address (${PRIVATE_REFUSED})`);
  const privateName = !isIP(host) && isPrivateName(host);
  if (privateName && !allowPrivate) throw refused();
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw new OutboundError("network", `could not resolve ${host}`);
    }
  }
  const anyPrivate = privateName || addresses.some((a) => isPrivateAddress(a.address));
  if (anyPrivate && !allowPrivate) throw refused();
  return { ...addresses[0]!, private: anyPrivate };
}

export async function safeFetch(raw: string, request: SafeRequest): Promise<SafeResponse> {
  const url = checkUrl(raw);
  const resolved = await resolveChecked(url.hostname);
  if (url.protocol === "http:" && !resolved.private) {
    throw new OutboundError("invalid_url", "public hosts must be reached over https");
  }
  const chosen = { address: resolved.address, family: resolved.family };
  const agent = pooledAgent(url, chosen);
  try {
    return await exchange(url, request, chosen, agent);
  } catch (error) {
    // A pooled connection the server closed while idle fails before any answer: once, afresh.
    if (error instanceof StaleSocket) return exchange(url, request, chosen, false);
    throw error;
  }
}

/** The request failed on a reused keep-alive socket before any response arrived. */
class StaleSocket extends Error {}

function pinnedLookup(chosen: { address: string; family: number }): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: chosen.address, family: chosen.family }]);
    else callback(null, chosen.address, chosen.family);
  };
}

/**
 * Keep-alive pools, one per (scheme, host, checked address, port): a pooled socket is only ever
 * reused for a request whose host resolved, in this attempt, to the very address that socket is
 * connected to (the lookup is still done and checked per attempt, above). Least recently used
 * pools beyond POOL_LIMIT are closed. Idle sockets close after IDLE_MS (sooner when the server's
 * Keep-Alive header says so) and do not keep the process alive.
 */
const POOL_LIMIT = 256;
const IDLE_MS = 4000;
const pools = new Map<string, http.Agent>();

function pooledAgent(url: URL, chosen: { address: string; family: number }): http.Agent {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const key = `${url.protocol}//${url.hostname}@${chosen.address}:${port}`;
  let agent = pools.get(key);
  if (agent) pools.delete(key);
  else {
    const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: IDLE_MS, lookup: pinnedLookup(chosen) };
    agent = url.protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
  }
  pools.set(key, agent);
  if (pools.size > POOL_LIMIT) {
    const [oldest, old] = pools.entries().next().value!;
    pools.delete(oldest);
    old.destroy();
  }
  return agent;
}

/** Closes every pooled connection (tests, shutdown). */
export function closeOutboundPools(): void {
  for (const agent of pools.values()) agent.destroy();
  pools.clear();
}

function exchange(
  url: URL,
  request: SafeRequest,
  chosen: { address: string; family: number },
  agent: http.Agent | false,
): Promise<SafeResponse> {
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<SafeResponse>((resolve, reject) => {
    let answered = false;
    const fail = (error: OutboundError) => {
      clearTimeout(deadline);
      req.destroy();
      reject(error);
    };
    const req = transport.request(
      url,
      {
        method: request.method ?? "GET",
        headers: { "user-agent": "ControlPlane/1.0", ...request.headers },
        lookup: pinnedLookup(chosen),
        agent,
      },
      (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return fail(new OutboundError("redirect", `answered ${status}: redirects are not followed`));
        }
        const declared = Number(res.headers["content-length"] ?? "0");
        if (declared > request.maxBytes) {
          res.destroy();
          return fail(new OutboundError("too_large", `the response is larger than ${request.maxBytes} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBytes) {
            res.destroy();
            fail(new OutboundError("too_large", `the response is larger than ${request.maxBytes} bytes`));
          } else chunks.push(chunk);
        });
        res.on("end", () => {
          clearTimeout(deadline);
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks), address: chosen.address });
        });
        res.on("error", () => fail(new OutboundError("network", "the connection broke while reading the response")));
      },
    );
    const deadline = setTimeout(
      () => fail(new OutboundError("timeout", `no complete answer within ${request.timeoutMs / 1000} s`)),
      request.timeoutMs,
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      const stale = req.reusedSocket && !answered && ["ECONNRESET", "EPIPE", "ECONNABORTED"].includes(error.code ?? "");
      if (stale) return reject(new StaleSocket());
      reject(new OutboundError("network", error.code ? `connection failed (${error.code})` : "connection failed"));
    });
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}
