/**
 * `new ControlPlane({ baseUrl, token })`: one method group per resource of the API, each call typed
 * from the OpenAPI document (./schema.d.ts), through one transport (retries, Idempotency-Key).
 */
import createClient from "openapi-fetch";
import { Transport, type RetryOptions } from "./transport.js";
import type { Http, paths } from "./types.js";
import type { Context } from "./resource.js";
import { Me, Members, Tenants, Tokens } from "./resources/identity.js";
import { Sso } from "./resources/sso.js";
import { Webhooks } from "./resources/webhooks.js";
import { Audit } from "./resources/audit.js";
import { Directories, Domains, SetupLinks } from "./resources/onboarding.js";
import { Events, EventTypes } from "./resources/events.js";
import { LogStreams } from "./resources/log-streams.js";

export const SDK_VERSION = "0.1.0";

export interface ControlPlaneOptions {
  /** The app's origin, e.g. `https://cp.example.com` (the API is under /api/v1). */
  baseUrl: string;
  /** An API token (`cp_…`). */
  token: string;
  /**
   * How long each attempt waits for the answer's headers, in ms (default 60 000; 0: no limit); a
   * call's own `{ timeout }` overrides it. An attempt that times out is retried as a network error
   * is; the last one throws ControlPlaneTimeoutError. A long poll (`cp.events`) adds its `wait`.
   */
  timeout?: number;
  /** Retries of 429, 500, 502, 503, 504, timeouts and network errors (default: 3, from 500 ms, no wait above 30 s); `false` turns them off. */
  retry?: RetryOptions | false;
  /** An Idempotency-Key generated for every POST/PUT/PATCH that gives none (default true). */
  idempotencyKeys?: boolean;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export class ControlPlane {
  /** The typed client over every path, for what the groups do not cover: `cp.http.GET("/tenants/{tenant_id}", ...)`. */
  readonly http: Http;
  readonly transport: Transport;

  readonly tenants: Tenants;
  readonly members: Members;
  readonly tokens: Tokens;
  readonly me: Me;
  readonly sso: Sso;
  readonly audit: Audit;
  readonly webhooks: Webhooks;
  readonly domains: Domains;
  readonly setupLinks: SetupLinks;
  readonly directories: Directories;
  readonly eventTypes: EventTypes;
  readonly events: Events;
  readonly logStreams: LogStreams;

  constructor(options: ControlPlaneOptions) {
    const origin = options.baseUrl.replace(/\/+$/, "");
    this.transport = new Transport({
      token: options.token,
      timeout: options.timeout,
      retry: options.retry,
      idempotencyKeys: options.idempotencyKeys,
      fetch: options.fetch,
      userAgent: `control-plane-sdk/${SDK_VERSION}`,
    });
    this.http = createClient<paths>({ baseUrl: `${origin}/api/v1`, fetch: this.transport.send });
    const ctx: Context = { http: this.http, transport: this.transport, origin };
    this.tenants = new Tenants(ctx);
    this.members = new Members(ctx);
    this.tokens = new Tokens(ctx);
    this.me = new Me(ctx);
    this.sso = new Sso(ctx);
    this.audit = new Audit(ctx);
    this.webhooks = new Webhooks(ctx);
    this.domains = new Domains(ctx);
    this.setupLinks = new SetupLinks(ctx);
    this.directories = new Directories(ctx);
    this.eventTypes = new EventTypes(ctx);
    this.events = new Events(ctx);
    this.logStreams = new LogStreams(ctx);
  }
}
