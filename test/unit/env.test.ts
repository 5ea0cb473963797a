import { describe, expect, test } from "vitest";
import { parseEnv, EnvError } from "../../server/env.ts";

describe("environment", () => {
  test("everything is optional on the embedded default", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.INTERNAL_CRON).toBe("on");
    expect(env.OUTBOUND_ALLOW_PRIVATE).toBe(false);
    expect(env).toMatchObject({
      RATE_LIMIT_PER_TOKEN: 600,
      RATE_LIMIT_PER_TOKEN_INGEST: 6000,
      RATE_LIMIT_PER_IP: 60,
      RATE_LIMIT_PER_IP_CONSOLE: 1200,
      RATE_LIMIT_WINDOW_SECONDS: 60,
    });
  });

  test("a rate limit of 0 is off, not invalid", () => {
    expect(parseEnv({ RATE_LIMIT_PER_TOKEN: "0", RATE_LIMIT_PER_IP: "0" })).toMatchObject({
      RATE_LIMIT_PER_TOKEN: 0,
      RATE_LIMIT_PER_IP: 0,
    });
  });

  test("values are parsed into types", () => {
    const env = parseEnv({ PORT: "8080", TRUST_PROXY: "true", OUTBOUND_ALLOW_PRIVATE: "false", WEBHOOK_RETRY_SCHEDULE: "1,2,4" });
    expect(env).toMatchObject({ PORT: 8080, TRUST_PROXY: true, OUTBOUND_ALLOW_PRIVATE: false, WEBHOOK_RETRY_SCHEDULE: [1, 2, 4] });
  });

  test.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ APP_URL: "not a url" }, "APP_URL"],
    [{ NEXTAUTH_SECRET: "short" }, "NEXTAUTH_SECRET"],
    [{ ENCRYPTION_KEY: "abc" }, "ENCRYPTION_KEY"],
    [{ INTERNAL_CRON: "maybe" }, "INTERNAL_CRON"],
    [{ TRUST_PROXY: "yes" }, "TRUST_PROXY"],
    [{ WEBHOOK_RETRY_SCHEDULE: "1,,2" }, "WEBHOOK_RETRY_SCHEDULE"],
    [{ BOOTSTRAP_ADMIN_EMAIL: "nope" }, "BOOTSTRAP_ADMIN_EMAIL"],
    [{ BOOTSTRAP_ADMIN_EMAIL: "a@b.co" }, "BOOTSTRAP_ADMIN_PASSWORD"],
    [{ BOOTSTRAP_TOKEN: "cp_short" }, "BOOTSTRAP_TOKEN"],
    [{ SSO_CLOCK_SKEW_SECONDS: "a minute" }, "SSO_CLOCK_SKEW_SECONDS"],
    [{ SSO_CLOCK_SKEW_SECONDS: "3600" }, "SSO_CLOCK_SKEW_SECONDS"],
    [{ RATE_LIMIT_PER_TOKEN: "-1" }, "RATE_LIMIT_PER_TOKEN"],
    [{ RATE_LIMIT_PER_IP: "lots" }, "RATE_LIMIT_PER_IP"],
    [{ RATE_LIMIT_WINDOW_SECONDS: "0" }, "RATE_LIMIT_WINDOW_SECONDS"],
  ])("a bad value stops start-up with one line naming the variable: %o", (source, name) => {
    let error: unknown;
    try {
      parseEnv(source);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message.split("\n")).toHaveLength(1);
  });

  test("WEB_CONCURRENCY: 1 process unless set; more need Postgres", () => {
    expect(parseEnv({}).WEB_CONCURRENCY).toBe(1);
    expect(parseEnv({ WEB_CONCURRENCY: "4", DATABASE_URL: "postgres://db/cp" }).WEB_CONCURRENCY).toBe(4);
    for (const bad of [{ WEB_CONCURRENCY: "0" }, { WEB_CONCURRENCY: "two" }, { WEB_CONCURRENCY: "2" }]) {
      expect(() => parseEnv(bad)).toThrow(/WEB_CONCURRENCY/);
    }
  });

  test("SSO clock skew: 60 s unless set", () => {
    expect(parseEnv({}).SSO_CLOCK_SKEW_SECONDS).toBe(60);
    expect(parseEnv({ SSO_CLOCK_SKEW_SECONDS: "0" }).SSO_CLOCK_SKEW_SECONDS).toBe(0);
  });

  test("empty strings count as unset", () => {
    expect(parseEnv({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });
});

describe("domain verification's DNS", () => {
  test("DNS_SERVERS: IP addresses with optional ports, as resolver.setServers takes them; unset → the system's", () => {
    expect(parseEnv({}).DNS_SERVERS).toBeUndefined();
    expect(parseEnv({ DNS_SERVERS: "1.1.1.1, 127.0.0.1:5353,::1,[2001:db8::1]:53" }).DNS_SERVERS).toEqual([
      "1.1.1.1",
      "127.0.0.1:5353",
      "::1",
      "[2001:db8::1]:53",
    ]);
  });

  test.each(["dns.example.com", "1.1.1.1:0", "1.1.1.1:70000", "1.1.1.1,", "2001:db8::1:53:x", "[1.1.1.1]:53"])(
    "DNS_SERVERS=%j stops start-up naming it",
    (value) => {
      expect(() => parseEnv({ DNS_SERVERS: value })).toThrow(EnvError);
      expect(() => parseEnv({ DNS_SERVERS: value })).toThrow(/DNS_SERVERS/);
    },
  );

  test("DOMAIN_VERIFICATION_PREFIX: DNS labels, lowercased; _control-plane-verification unless set", () => {
    expect(parseEnv({}).DOMAIN_VERIFICATION_PREFIX).toBe("_control-plane-verification");
    expect(parseEnv({ DOMAIN_VERIFICATION_PREFIX: "_Acme-Verify.x" }).DOMAIN_VERIFICATION_PREFIX).toBe("_acme-verify.x");
    for (const bad of ["has space", "-lead", "a..b", "a.", "x".repeat(64)]) {
      expect(() => parseEnv({ DOMAIN_VERIFICATION_PREFIX: bad })).toThrow(/DOMAIN_VERIFICATION_PREFIX/);
    }
  });
});
