/**
 * Looks up a domain's verification TXT record through Node's resolver (c-ares), pointed at
 * DNS_SERVERS when set, and says what it found: the value, another value, no record, or nothing
 * to go on (a timeout, a server failure), which must never count against the record.
 */
import { Resolver } from "node:dns/promises";
import { env } from "../env.ts";
import type { CheckResult } from "./schemas.ts";

/** How long one lookup may take. A setting object (like `clock`) so tests can shorten it. */
export const dnsSettings = { timeoutMs: 5_000 };

export interface Lookup {
  result: CheckResult;
  /** Why it is not a match, in words; null for a match. */
  error: string | null;
}

/** NXDOMAIN, or a name without TXT records. */
const NO_RECORD = new Set(["ENOTFOUND", "ENODATA"]);

/** The name of a domain's verification record. */
export function recordName(domain: string): string {
  return `${env().DOMAIN_VERIFICATION_PREFIX}.${domain}`;
}

function resolverFor(timeoutMs: number): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const servers = env().DNS_SERVERS;
  if (servers?.length) resolver.setServers(servers);
  return resolver;
}

/** Each TXT record's chunks joined (a record longer than 255 bytes comes in several). */
async function txtRecords(name: string): Promise<string[]> {
  const { timeoutMs } = dnsSettings;
  const resolver = resolverFor(timeoutMs);
  // c-ares' own timeout is per try; this bounds the whole lookup whatever the resolver does.
  const guard = setTimeout(() => resolver.cancel(), timeoutMs + 250);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  } finally {
    clearTimeout(guard);
  }
}

export async function lookupVerification(domain: string, expected: string): Promise<Lookup> {
  const name = recordName(domain);
  try {
    const values = await txtRecords(name);
    if (values.includes(expected)) return { result: "match", error: null };
    if (values.length === 0) return { result: "no_record", error: `No TXT record at ${name}` };
    return { result: "wrong_value", error: `The TXT record at ${name} does not have the expected value` };
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unknown";
    if (NO_RECORD.has(code)) return { result: "no_record", error: `No TXT record at ${name}` };
    const why = code === "ETIMEOUT" || code === "ECANCELLED" ? "timed out" : `failed (${code})`;
    return { result: "unavailable", error: `The DNS lookup of ${name} ${why}; it is tried again later` };
  }
}
