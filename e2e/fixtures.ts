/**
 * The test API for journeys: page objects, a signed-in operator, and the REST API (as the
 * bootstrap operator token) to arrange data quickly.
 */
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD, OPERATOR_TOKEN } from "./constants";
import { LoginPage } from "./pages/login-page";
import { TenantDetailPage } from "./pages/tenant-detail-page";
import { TenantsPage } from "./pages/tenants-page";

export interface Tenant {
  id: string;
  name: string;
  created_at: string;
}

export interface TenantPage {
  results: Tenant[];
  count: number;
  next_cursor: string | null;
  previous_cursor: string | null;
}

/** The REST API as the bootstrap operator. */
export class Api {
  constructor(private readonly request: APIRequestContext) {}

  private headers = { Authorization: `Bearer ${OPERATOR_TOKEN}` };

  async createTenant(name: string): Promise<Tenant> {
    const response = await this.request.post("/api/v1/tenants", { headers: this.headers, data: { name } });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as Tenant;
  }

  async listTenants(query: Record<string, string | number> = {}): Promise<TenantPage> {
    const response = await this.request.get("/api/v1/tenants", { headers: this.headers, params: query });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()) as TenantPage;
  }
}

/**
 * Signs the page's browser context in as someone through next-auth's own endpoints (its CSRF
 * token, then the credentials callback), as the sign-in form does, without rendering the form:
 * the journeys that are about signing in use the form (auth.spec, login-page.ts); the others only
 * need a session of their own. Then opens the console's home, which sends a member of one tenant
 * into it and everyone else to the tenants list.
 */
export async function signInThroughApi(page: Page, email: string, password: string): Promise<void> {
  const csrf = await page.request.get("/api/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  // The browser's form sends its page's Origin; the server refuses one of another site.
  const origin = new URL(csrf.url()).origin;
  const response = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
    headers: { origin },
    maxRedirects: 0,
  });
  const body = await response.text();
  expect(response.status(), body).toBe(200);
  expect(JSON.parse(body).url, "sign-in refused").not.toMatch(/[?&]error=/);
  await page.goto("/");
  await page.waitForURL((url) => url.pathname === "/tenants" || url.pathname.startsWith("/tenants/"));
}

/** A name no other test (or earlier run) uses. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

interface Fixtures {
  api: Api;
  loginPage: LoginPage;
  tenantsPage: TenantsPage;
  tenantDetailPage: TenantDetailPage;
  /** Signs the page in as the bootstrap operator (lands on /tenants), without the sign-in form. */
  signedIn: void;
  /** Fails the test on any Content-Security-Policy violation in its pages (runs for every test). */
  cspViolations: void;
  /**
   * The console errors a spec file expects, by the reason they are expected (a 4xx the page
   * handles, say); opt in with `test.use({ allowedConsoleErrors: {} })`. Unset (false): not checked.
   */
  allowedConsoleErrors: Record<string, RegExp> | false;
  /** Fails the test on any console error or uncaught page error the spec does not allow (hydration errors included). */
  consoleErrors: void;
}

// The fixture callback is named `provide`, not `use`, so the React hooks lint rule leaves it alone.
export const test = base.extend<Fixtures>({
  api: async ({ request }, provide) => provide(new Api(request)),
  loginPage: async ({ page }, provide) => provide(new LoginPage(page)),
  tenantsPage: async ({ page }, provide) => provide(new TenantsPage(page)),
  tenantDetailPage: async ({ page }, provide) => provide(new TenantDetailPage(page)),
  cspViolations: [
    async ({ context }, provide) => {
      const violations: string[] = [];
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (e) => {
          console.error(
            `securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`,
          );
        });
      });
      context.on("console", (message) => {
        const text = message.text();
        if (text.startsWith("securitypolicyviolation") || text.includes("Content Security Policy"))
          violations.push(`${message.location().url}: ${text}`);
      });
      await provide();
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
  allowedConsoleErrors: [false, { option: true }],
  consoleErrors: [
    async ({ context, allowedConsoleErrors: allowed }, provide) => {
      if (allowed === false) return provide();
      const errors: string[] = [];
      context.on("console", (message) => {
        if (message.type() === "error") errors.push(`${message.location().url}: ${message.text()}`);
      });
      context.on("weberror", (error) => errors.push(`uncaught: ${error.error().stack ?? error.error().message}`));
      await provide();
      expect(
        errors.filter((error) => !Object.values(allowed).some((pattern) => pattern.test(error))),
        "console errors",
      ).toEqual([]);
    },
    { auto: true },
  ],
  signedIn: async ({ page }, provide) => {
    await signInThroughApi(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
    await provide();
  },
});

export { expect };
export { OPERATOR_EMAIL, OPERATOR_PASSWORD };
