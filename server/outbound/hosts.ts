/**
 * Which hosts are not public: one answer for the URL policy when a target is stored and for the
 * SSRF guard when it is called. A host is read as the WHATWG URL parser reads an http URL's host
 * (lowercase, IDNA, IPv4 in any spelling: `127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`, `0`),
 * trailing dots dropped. An IPv6 address that carries an IPv4 one (IPv4-compatible `::/96`,
 * IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) is judged by that IPv4 address.
 */
import "server-only";
import { BlockList, isIP } from "node:net";

const PRIVATE_V4 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including 169.254.169.254 (cloud metadata)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE_V4.addSubnet(net, prefix, "ipv4");
}

/** IPv6 ranges that are not public, besides those carrying an IPv4 address (`::` and `::1` are in `::/96`). */
const PRIVATE_V6 = new BlockList();
for (const [net, prefix] of [
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215)
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7], // unique local, including fd00:ec2::254 (cloud metadata)
  ["fe80::", 10],
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8],
] as const) {
  PRIVATE_V6.addSubnet(net, prefix, "ipv6");
}

/** Names that never lead to a public host: this machine, or a private namespace (`metadata.google.internal`). */
const PRIVATE_NAME = /(^|\.)(localhost|internal|local|home\.arpa)$/;

/**
 * `raw` as the URL parser reads an http host: lowercase, punycode, IPv4 dotted-decimal, IPv6
 * compressed without brackets, no trailing dot. Null when it is not a host (a port, a path,
 * credentials, forbidden characters).
 */
export function normaliseHost(raw: string): string | null {
  const bare = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
  const literal = isIP(bare) === 6 ? `[${bare}]` : raw.replace(/\.+$/, "");
  if (literal === "" || /[\s/\\?#@]/.test(literal) || (literal.includes(":") && !literal.startsWith("["))) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${literal}/`).hostname;
  } catch {
    return null;
  }
  return hostname.startsWith("[") ? hostname.slice(1, -1) : hostname.replace(/\.+$/, "");
}

/** The eight 16-bit groups of an IPv6 address in any spelling (null: not one). */
function ipv6Groups(address: string): number[] | null {
  const host = normaliseHost(address);
  if (host === null || isIP(host) !== 6) return null;
  const [head, tail] = host.includes("::") ? host.split("::") : [host, undefined];
  const part = (text: string | undefined) => (text ? text.split(":").map((g) => parseInt(g, 16)) : []);
  const [first, last] = [part(head), part(tail)];
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** The IPv4 address an IPv6 one carries (compatible, mapped, translated, NAT64, 6to4), else null. */
function embeddedIpv4(g: number[]): string | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  const quad = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return quad(g[6]!, g[7]!); // ::/96, ::ffff:0:0/96
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return quad(g[6]!, g[7]!); // ::ffff:0:0:0/96
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return quad(g[6]!, g[7]!); // 64:ff9b::/96
  if (g[0] === 0x2002) return quad(g[1]!, g[2]!); // 2002::/16, the IPv4 in bits 16-47
  return null;
}

/** Whether an address (as DNS answers it, or written in a URL) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const host = normaliseHost(address);
  if (host === null) return true;
  const family = isIP(host);
  if (family === 4) return PRIVATE_V4.check(host, "ipv4");
  if (family !== 6) return true;
  const groups = ipv6Groups(host)!;
  const v4 = embeddedIpv4(groups);
  return v4 !== null ? PRIVATE_V4.check(v4, "ipv4") : PRIVATE_V6.check(host, "ipv6");
}

/** Whether a host name (not an address) can only lead somewhere private: `localhost`, `*.internal`, `*.local`, `*.home.arpa`. */
export function isPrivateName(host: string): boolean {
  return PRIVATE_NAME.test(host);
}

/**
 * Whether a host, in any spelling, is a private address or a private name (not a host at all:
 * true). Names that resolve to a private address are the guard's, at call time.
 */
export function isPrivateHost(raw: string): boolean {
  const host = normaliseHost(raw);
  if (host === null) return true;
  return isIP(host) ? isPrivateAddress(host) : isPrivateName(host);
}
