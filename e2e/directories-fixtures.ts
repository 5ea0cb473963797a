/** Helpers the Directory Sync journeys share: a SCIM client as an identity provider would be. */
import type { APIRequestContext } from "@playwright/test";
import { expect } from "./identity";

/** A SCIM client as an IdP would be, on a directory's base URL with its token. */
export class ScimClient {
  constructor(
    private readonly request: APIRequestContext,
    private readonly base: string,
    private readonly token: string,
  ) {}

  async send(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown) {
    const response = await this.request.fetch(`${this.base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/scim+json" },
      data: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status(), body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
  }

  async created(path: string, body: unknown): Promise<string> {
    const { status, body: answer } = await this.send("POST", path, body);
    expect(status, JSON.stringify(answer)).toBe(201);
    return answer!.id as string;
  }
}
