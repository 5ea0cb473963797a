/**
 * A real OpenID Provider for tests: `oidc-provider` (certified) on 127.0.0.1, in the test process.
 * Its login is programmatic: the interaction route signs in `op.loginAs` (or the login_hint) and
 * grants the requested scopes, so tests drive the whole flow over HTTP without a browser.
 *
 * `mount` puts the OP under a path (Entra's issuers look like https://host/{tenant}/v2.0);
 * `/template/.well-known/openid-configuration` serves its discovery with the issuer turned into
 * Entra's multi-tenant template (`{tenantid}`), and `/rogue/...` a discovery whose token endpoint
 * is the test's (`op.rogueToken`), for id_tokens a well-behaved OP would never issue.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider, { type Adapter, type AdapterPayload, type ClientMetadata } from "oidc-provider";

export interface Account {
  sub: string;
  email?: string;
  email_verified?: boolean;
  /** Entra's optional claim: the email's domain owner is verified. */
  xms_edov?: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
  tid?: string;
}

export interface TestOp {
  /** The discovery URL to paste into a provider. */
  discoveryUrl: string;
  /** Entra multi-tenant style discovery ({tenantid} issuer template). */
  templateDiscoveryUrl: string;
  /** Discovery whose token endpoint answers `rogueToken` (same JWKS as the real OP). */
  rogueDiscoveryUrl: string;
  issuer: string;
  origin: string;
  accounts: Map<string, Account>;
  /** Who the next login is (by sub); else the login_hint. */
  loginAs: string | null;
  addClient(metadata: ClientMetadata): void;
  /** The OP's own signing key (private JWK): to sign what a rogue token endpoint returns. */
  signingKey: JWK;
  rogueToken: ((body: URLSearchParams) => Promise<Record<string, unknown>>) | null;
  /** How many times the OP's JWKS was fetched. */
  jwksFetches: number;
  close(): Promise<void>;
}

const stores = new Map<string, Map<string, AdapterPayload>>();

export async function startOidcOp(options: { mount?: string; idTokenClaims?: boolean } = {}): Promise<TestOp> {
  const mount = options.mount ?? "";
  const clients = new Map<string, ClientMetadata>();
  const storeId = randomUUID();

  class MemoryAdapter implements Adapter {
    private readonly store: Map<string, AdapterPayload>;
    constructor(private readonly model: string) {
      if (!stores.has(storeId)) stores.set(storeId, new Map());
      this.store = stores.get(storeId)!;
    }
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: AdapterPayload) {
      this.store.set(this.key(id), payload);
    }
    async find(id: string) {
      if (this.model === "Client") return clients.get(id) as AdapterPayload | undefined;
      return this.store.get(this.key(id));
    }
    async findByUid(uid: string) {
      return [...this.store.values()].find((p) => p.uid === uid);
    }
    async findByUserCode(code: string) {
      return [...this.store.values()].find((p) => p.userCode === code);
    }
    async consume(id: string) {
      const payload = this.store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      this.store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, payload] of this.store) if (payload.grantId === grantId) this.store.delete(key);
    }
  }

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: `op-${randomUUID().slice(0, 8)}`, alg: "RS256", use: "sig" };
  const accounts = new Map<string, Account>();

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${origin}${mount}`;

  const provider = new Provider(issuer, {
    adapter: MemoryAdapter,
    jwks: { keys: [signingKey] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${mount}/interaction/${interaction.uid}` },
    claims: {
      openid: ["sub", "tid"],
      email: ["email", "email_verified", "xms_edov"],
      profile: ["given_name", "family_name", "name", "groups"],
    },
    conformIdTokenClaims: !options.idTokenClaims,
    pkce: { required: () => true },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...account }) };
    },
  });
  provider.proxy = false;
  const callback = provider.callback();

  const op: TestOp = {
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    templateDiscoveryUrl: `${origin}/template/.well-known/openid-configuration`,
    rogueDiscoveryUrl: `${origin}/rogue/.well-known/openid-configuration`,
    issuer,
    origin,
    accounts,
    loginAs: null,
    signingKey,
    rogueToken: null,
    jwksFetches: 0,
    addClient(metadata) {
      clients.set(metadata.client_id, {
        token_endpoint_auth_method: "client_secret_basic",
        response_types: ["code"],
        grant_types: ["authorization_code"],
        ...metadata,
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function discovery(): Promise<Record<string, unknown>> {
    return (await fetch(op.discoveryUrl)).json() as Promise<Record<string, unknown>>;
  }

  server.on("request", async (req, res) => {
    try {
      const url = new URL(req.url!, origin);
      if (url.pathname === `${mount}/jwks`) op.jwksFetches++;
      if (url.pathname === "/template/.well-known/openid-configuration") {
        const doc = await discovery();
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ ...doc, issuer: `${origin}/{tenantid}${mount.replace(/^\/[^/]+/, "")}` }));
        return;
      }
      if (url.pathname === "/rogue/.well-known/openid-configuration") {
        const doc = await discovery();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...doc, token_endpoint: `${origin}/rogue/token` }));
        return;
      }
      if (url.pathname === "/rogue/token") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const body = await op.rogueToken!(new URLSearchParams(Buffer.concat(chunks).toString()));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
        return;
      }
      if (url.pathname.startsWith(`${mount}/interaction/`)) {
        Object.assign(req, { originalUrl: req.url, url: req.url!.slice(mount.length) });
        const details = await provider.interactionDetails(req, res);
        const accountId = op.loginAs ?? [...accounts.values()].find((a) => a.email === details.params.login_hint)?.sub;
        if (!accountId) {
          await provider.interactionFinished(
            req,
            res,
            { error: "access_denied", error_description: "no such test user" },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
        return;
      }
      if (mount && !url.pathname.startsWith(mount)) {
        res.writeHead(404).end();
        return;
      }
      // As express/koa-mount do: the OP reads its mount path from originalUrl.
      if (mount) Object.assign(req, { originalUrl: req.url, url: req.url!.slice(mount.length) || "/" });
      callback(req, res);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  return op;
}
