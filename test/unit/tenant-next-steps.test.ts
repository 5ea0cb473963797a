import { describe, expect, test } from "vitest";
import { nextSteps } from "../../components/tenants/next-steps";

const TENANT = "7d1c2a9e-0000-4000-8000-000000000001";
const page = <T>(results: T[], count = results.length) => ({ count, results });

describe("a tenant's next steps on its Overview", () => {
  test("a new tenant: every step is to do, in words, with the page it links to and the admin's next action", () => {
    const steps = nextSteps(TENANT, {
      members: { count: 1 },
      domains: page([]),
      sso: page([]),
      directories: page([]),
      webhooks: page([]),
    });
    expect(steps.map((s) => [s.key, s.state, s.done, s.href, s.action])).toEqual([
      ["members", "1 member", false, `/tenants/${TENANT}/members`, "Invite your team"],
      ["domains", "No verified domain", false, `/tenants/${TENANT}/domains`, "Verify a domain"],
      ["sso", "SSO: not configured", false, `/tenants/${TENANT}/sso`, "Add a provider"],
      ["directories", "No directory connected", false, `/tenants/${TENANT}/directories`, "Connect a directory"],
      ["webhooks", "No webhooks", false, `/tenants/${TENANT}/webhooks`, "Add a webhook"],
    ]);
  });

  test("a set-up tenant: each step done, saying what is there, with no action left", () => {
    const steps = nextSteps(TENANT, {
      members: { count: 2 },
      domains: page([
        { domain: "acme.example", state: "verified" as const },
        { domain: "acme.test", state: "pending" as const },
      ]),
      sso: page([{ name: "Okta", enabled: true }]),
      directories: page([{ name: "Entra ID employees" }]),
      webhooks: page([{ enabled: true }], 3),
    });
    expect(steps.map((s) => [s.state, s.done, s.action])).toEqual([
      ["2 members", true, null],
      ["Verified: acme.example", true, null],
      ["SSO: on through Okta", true, null],
      ["Connected: Entra ID employees", true, null],
      ["3 webhooks", true, null],
    ]);
  });

  test("half-way: a pending domain and a provider not enabled yet say what is missing; unknown lists read as loading", () => {
    const steps = nextSteps(TENANT, {
      domains: page([{ domain: "acme.example", state: "pending" as const }]),
      sso: page([{ name: "Okta", enabled: false }]),
    });
    expect(steps.find((s) => s.key === "domains")).toMatchObject({
      state: "No verified domain: acme.example waits for its DNS record",
      done: false,
    });
    expect(steps.find((s) => s.key === "sso")).toMatchObject({
      state: "SSO: 1 provider, not enabled yet (test sign-in, then enable)",
      done: false,
      action: "Test and enable",
    });
    expect(steps.find((s) => s.key === "members")).toMatchObject({ state: null, done: false });
  });
});
