/**
 * Every spelling of a private host is the private host, when a target is stored (the URL policy:
 * webhooks, SSO metadata, log streams' URLs and syslog hosts) and when it is called (the SSRF
 * guard): the URL parser's reading of IPv4 (`127.1`, `0x7f.1`, octal, one integer, `0`), case and
 * trailing dots, and IPv6 addresses that carry an IPv4 one.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { env } from "../../server/env.ts";
import { OutboundError, resolveChecked } from "../../server/outbound/guard.ts";
import { isPrivateAddress, normaliseHost } from "../../server/outbound/hosts.ts";
import { outboundHostProblems, outboundUrlProblems } from "../../server/outbound/url-policy.ts";

beforeAll(() => {
  env().OUTBOUND_ALLOW_PRIVATE = false;
});
afterAll(() => {
  env().OUTBOUND_ALLOW_PRIVATE = true;
});

/** Written as a URL's host (IPv6 in brackets there, bare as a syslog host). */
const PRIVATE_SPELLINGS = [
  "127.0.0.1",
  "127.1",
  "0x7f.1",
  "0x7f000001",
  "0177.0.0.1",
  "2130706433",
  "0",
  "0.0.0.0",
  "127.0.0.1.",
  "LOCALHOST",
  "localhost.",
  "Api.LocalHost.",
  "10.0.0.1.",
  "012.0.0.1",
  "0xa9.0xfe.0xa9.0xfe",
  "2852039166",
  "169.254.169.254",
  "metadata.google.internal",
  "METADATA.GOOGLE.INTERNAL.",
  "printer.local",
  "nas.home.arpa",
  "::1",
  "::",
  "0:0:0:0:0:0:0:1",
  "::127.0.0.1",
  "::7f00:1",
  "::a9fe:a9fe",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::FFFF:10.0.0.1",
  "::ffff:0:127.0.0.1",
  "::ffff:0:a00:1",
  "64:ff9b::127.0.0.1",
  "64:ff9b::a9fe:a9fe",
  "64:ff9b:1::1",
  "2002:7f00:1::",
  "2002:a9fe:a9fe::1",
  "2002:c0a8:101:ffff::1",
  "fd00:ec2::254",
  "fe80::1",
  "fec0::1",
];

const PUBLIC_HOSTS = ["hooks.acme.com", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1"];

const inUrl = (host: string) => `https://${host.includes(":") ? `[${host}]` : host}/hook`;

describe("stored targets (save time)", () => {
  test.each(PRIVATE_SPELLINGS)("%s is refused as a URL's host and as a syslog host", (host) => {
    expect(outboundUrlProblems(inUrl(host))).toEqual([expect.stringMatching(/must not point at a private or loopback address/)]);
    expect(outboundHostProblems(host)).toEqual([expect.stringMatching(/must not point at a private or loopback address/)]);
  });

  test.each(PUBLIC_HOSTS)("%s is allowed", (host) => {
    expect(outboundUrlProblems(inUrl(host))).toEqual([]);
    expect(outboundHostProblems(host)).toEqual([]);
  });

  test.each(["siem.acme.com:514", "tcp://siem.acme.com", "siem.acme.com/x", "admin@siem.acme.com", "siem acme", "", "fe80::1%eth0"])(
    "%j is not a syslog host",
    (host) => {
      expect(outboundHostProblems(host)).toEqual(["must be a host name or IP address (no scheme, port or path)"]);
    },
  );

  test("with OUTBOUND_ALLOW_PRIVATE=true every spelling may be stored", () => {
    env().OUTBOUND_ALLOW_PRIVATE = true;
    try {
      for (const host of PRIVATE_SPELLINGS) expect(outboundHostProblems(host), host).toEqual([]);
    } finally {
      env().OUTBOUND_ALLOW_PRIVATE = false;
    }
  });
});

describe("the SSRF guard (send time) reads hosts the same way", () => {
  test.each(PRIVATE_SPELLINGS)("%s is refused (a private name before any lookup)", async (host) => {
    const refused = await resolveChecked(host).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OutboundError);
    expect((refused as OutboundError).kind).toBe("blocked");
  });

  test("a DNS answer in any IPv6 form carrying a private IPv4 address is private", () => {
    for (const address of ["::7f00:1", "::ffff:0:7f00:1", "64:ff9b::a00:1", "2002:7f00:1::", "::ffff:127.0.0.1"])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["8.8.8.8", "2606:4700:4700::1111", "64:ff9b::808:808"]) expect(isPrivateAddress(address), address).toBe(false);
  });

  test("hosts are read as the URL parser reads them", () => {
    expect(normaliseHost("0x7f.1")).toBe("127.0.0.1");
    expect(normaliseHost("2130706433")).toBe("127.0.0.1");
    expect(normaliseHost("[::127.0.0.1]")).toBe("::7f00:1");
    expect(normaliseHost("Siem.Acme.COM.")).toBe("siem.acme.com");
    expect(normaliseHost("münchen.de")).toBe("xn--mnchen-3ya.de");
  });
});
