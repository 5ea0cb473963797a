/**
 * Journeys about people and tokens: the REST calls that arrange them (as the bootstrap operator),
 * signing in as someone else, and the identity page objects as fixtures.
 */
import { execFileSync } from "node:child_process";
import type { APIRequestContext } from "@playwright/test";
import constants from "./constants.json" with { type: "json" };
import { OPERATOR_TOKEN } from "./constants";
import { expect, signInThroughApi, test as base, uniqueName, type Tenant } from "./fixtures";
import { MembersPage } from "./pages/members-page";
import { ProfilePage } from "./pages/profile-page";
import { TokensPage } from "./pages/tokens-page";

export interface Member {
  user_id: string;
  tenant_id: string;
  email: string;
  name: string | null;
  role: "admin" | "viewer";
  has_password: boolean;
}

export interface Person {
  email: string;
  password: string;
  userId: string;
}

/** A tenant with a person who can sign in to it, made over the REST API. */
export interface TenantWithPerson {
  tenant: Tenant;
  person: Person;
}

export const PASSWORD = "e2e-member-password-1";

/** A fresh email address no earlier test or run has used. */
export function uniqueEmail(prefix: string): string {
  return `${uniqueName(prefix).replace(/\s+/g, "-").toLowerCase()}@example.com`;
}

/** The REST API as the bootstrap operator, for people and tokens. */
export class IdentityApi {
  constructor(private readonly request: APIRequestContext) {}

  private headers = { Authorization: `Bearer ${OPERATOR_TOKEN}` };

  async createTenant(name: string): Promise<Tenant> {
    const response = await this.request.post("/api/v1/tenants", { headers: this.headers, data: { name } });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as Tenant;
  }

  async addMember(tenantId: string, body: { email: string; role: "admin" | "viewer"; name?: string; password?: string }): Promise<Member> {
    const response = await this.request.post(`/api/v1/tenants/${tenantId}/members`, { headers: this.headers, data: body });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as Member;
  }

  async listMembers(tenantId: string): Promise<Member[]> {
    const response = await this.request.get(`/api/v1/tenants/${tenantId}/members`, { headers: this.headers, params: { page_size: 100 } });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { results: Member[] }).results;
  }

  /** A token for `userId`, minted by the operator (`user_id` in the body). */
  async mintToken(userId: string, name = "e2e"): Promise<string> {
    const response = await this.request.post("/api/v1/tokens", { headers: this.headers, data: { name, user_id: userId } });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { token: string }).token;
  }

  /** A new tenant and a member of it with a password. */
  async tenantWith(role: "admin" | "viewer", prefix = "Identity"): Promise<TenantWithPerson> {
    const tenant = await this.createTenant(uniqueName(prefix));
    const email = uniqueEmail(role);
    const member = await this.addMember(tenant.id, { email, role, name: `E2E ${role}`, password: PASSWORD });
    return { tenant, person: { email, password: PASSWORD, userId: member.user_id } };
  }
}

/**
 * A user with a platform role (support staff, another operator), made with the CLI against the
 * e2e database: platform roles are not granted over the API.
 */
export function createPlatformUser(role: "support" | "operator", email = uniqueEmail(role), password = PASSWORD): Person {
  const output = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./scripts/server-only.mjs",
      "scripts/cli.ts",
      "user",
      "create",
      "--email",
      email,
      "--password",
      password,
      "--platform-role",
      role,
    ],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: process.env.E2E_DATABASE_URL ?? constants.databaseUrl,
        ENCRYPTION_KEY: constants.encryptionKey,
        NEXTAUTH_SECRET: constants.nextauthSecret,
        LOG_LEVEL: "warn",
      },
    },
  );
  const user = JSON.parse(output) as { id: string; email: string };
  return { email: user.email, password, userId: user.id };
}

/**
 * Signs `page` in as someone and waits for the console: the tenants list, or for a member of
 * exactly one tenant, that tenant (without the sign-in form: `signInThroughApi`).
 */
export const signInAs = signInThroughApi;

interface IdentityFixtures {
  people: IdentityApi;
  membersPage: MembersPage;
  tokensPage: TokensPage;
  profilePage: ProfilePage;
}

export const test = base.extend<IdentityFixtures>({
  people: async ({ request }, provide) => provide(new IdentityApi(request)),
  membersPage: async ({ page }, provide) => provide(new MembersPage(page)),
  tokensPage: async ({ page }, provide) => provide(new TokensPage(page)),
  profilePage: async ({ page }, provide) => provide(new ProfilePage(page)),
});

export { expect, uniqueName };
