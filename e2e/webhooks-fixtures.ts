/**
 * Fixtures for the webhook journeys, on top of the identity ones: a local receiver on 127.0.0.1
 * (e2e/server-env.mjs allows private targets), webhooks made over the REST API, and the webhooks page.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { OPERATOR_TOKEN } from "./constants";
import { expect, signInAs, test as base, uniqueName } from "./identity";
import { WebhooksPage } from "./pages/webhooks-page";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer = { status: number; body: string; headers?: Record<string, string> };

/** A local endpoint on 127.0.0.1 that records every request; answers 200 unless told otherwise. */
export class Receiver {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly received: Received[],
    private readonly answers: Map<string, Answer>,
  ) {}

  static async start(): Promise<Receiver> {
    const received: Received[] = [];
    const answers = new Map<string, Answer>();
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
        const answer = answers.get(path) ?? { status: 200, body: "ok" };
        response.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, answers);
  }

  /** A fresh URL on this receiver, so each test reads only its own requests. */
  url(name: string): string {
    return `${this.origin}/${uniqueName(name).replace(/\s+/g, "-")}`;
  }

  answer(url: string, status: number, body: string, headers?: Record<string, string>) {
    this.answers.set(new URL(url).pathname, { status, body, headers });
  }

  at(url: string): Received[] {
    return this.received.filter((r) => r.path === new URL(url).pathname);
  }

  /** What arrived at `url` for events of `type`. */
  events(url: string, type: string): Received[] {
    return this.at(url).filter((r) => (JSON.parse(r.body) as { type: string }).type === type);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The spec's signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret. */
export function signatureOf(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

interface ApiWebhook {
  id: string;
  url: string;
  enabled: boolean;
  events: string[];
}

/** Webhooks over the REST API, as the bootstrap operator. */
export class WebhooksApi {
  constructor(private readonly request: APIRequestContext) {}

  private headers = { Authorization: `Bearer ${OPERATOR_TOKEN}` };

  async create(tenantId: string, body: { url: string; events: string[]; secret?: string }): Promise<ApiWebhook & { secret: string }> {
    const response = await this.request.post(`/api/v1/tenants/${tenantId}/webhooks`, { headers: this.headers, data: body });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as ApiWebhook & { secret: string };
  }

  async list(tenantId: string): Promise<ApiWebhook[]> {
    const response = await this.request.get(`/api/v1/tenants/${tenantId}/webhooks`, { headers: this.headers });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { results: ApiWebhook[] }).results;
  }
}

export const test = base.extend<{ webhooksApi: WebhooksApi; webhooksPage: WebhooksPage }, { receiver: Receiver }>({
  receiver: [
    async ({}, provide) => {
      const receiver = await Receiver.start();
      await provide(receiver);
      await receiver.close();
    },
    { scope: "worker" },
  ],
  webhooksApi: async ({ request }, provide) => provide(new WebhooksApi(request)),
  webhooksPage: async ({ page }, provide) => provide(new WebhooksPage(page)),
});

export { expect, signInAs, uniqueName };
