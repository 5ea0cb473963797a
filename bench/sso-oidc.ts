/**
 * The OIDC half of `npm run bench:sso`: the callback's work on one instance, IdP time excluded.
 *
 * A stand-in OP runs in a child process (bench/oidc-stub.mjs: discovery, JWKS, a token endpoint
 * that answers each code with a token response signed ahead of time), so its CPU is not ours.
 * Ahead of each run: `n` pending sign-ins stored in Postgres as "Continue with SSO" stores them,
 * each with its code and an RS256 id_token (2048-bit key) carrying its nonce. Measured, per
 * callback, exactly what the callback route does after reading the request: take the pending row
 * (atomic UPDATE), `completeOidc` (code exchange over HTTP to the stub, id_token signature and
 * claims by openid-client, profile), `completeSignIn` (user and membership upserts, `user.created`
 * and `user.login` in one transaction) and the session cookie (next-auth JWE). Every callback is a
 * first sign-in (a new person), the heavier path.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import type { Database } from "../server/db/client.ts";
import { completeOidc } from "../server/sso/signin/oidc.ts";
import { completeSignIn } from "../server/sso/signin/complete.ts";
import { newPending, storePending, takePendingSignIn } from "../server/sso/signin/pending.ts";
import { sessionCookie } from "../server/auth/session-token.ts";
import { oidcSpDetails } from "../server/sso/sp.ts";
import { wireEventSubscribers } from "../server/app/features.ts";
import type { SignInProvider } from "../server/sso/signin/protocol.ts";

export interface OidcRun {
  perSecond: number;
  cpuMsPerSignIn: number;
  wallMsPerSignIn: number;
}

interface Stub {
  issuer: string;
  send(message: object): Promise<void>;
  close(): void;
}

async function startStub(): Promise<Stub> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "oidc-stub.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const issuer = await new Promise<string>((resolve) => child.once("message", (m: { issuer: string }) => resolve(m.issuer)));
  return {
    issuer,
    send: (message) =>
      new Promise((resolve) => {
        child.once("message", () => resolve());
        child.send(message);
      }),
    close: () => child.disconnect(),
  };
}

export interface OidcBench {
  run(n: number, concurrency: number): Promise<OidcRun>;
  close(): void;
}

/** Sets up the stub OP, its key and a provider in a tenant; `run` measures one batch of callbacks. */
export async function oidcBench(db: Database): Promise<OidcBench> {
  // As at start-up: events written by sign-ins reach the webhook outbox (none subscribed here).
  wireEventSubscribers();
  const stub = await startStub();
  const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength: 2048 });
  const kid = "bench";
  await stub.send({ type: "jwks", jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }] } });

  const tenant = await db.prisma.tenant.create({ data: { name: "OIDC bench" } });
  const domain = "oidc-bench.example";
  const row = await db.prisma.ssoProvider.create({
    data: {
      tenantId: tenant.id,
      providerType: "oidc",
      protocol: "oidc",
      name: "Bench OP",
      metadataUrl: `${stub.issuer}/.well-known/openid-configuration`,
      metadataStatus: "valid",
      clientId: "bench-client",
    },
  });
  const provider: SignInProvider = {
    id: row.id,
    tenantId: tenant.id,
    providerType: "oidc",
    protocol: "oidc",
    name: row.name,
    enabled: true,
    metadataUrl: row.metadataUrl,
    domains: [domain],
    // A verified domain with auto-join: every bench sign-in is a first one.
    domainAccess: new Map([[domain, { routes: true, verified: true, autoJoin: true }]]),
    defaultRole: "viewer",
    allowIdpInitiated: false,
    entraTenantIds: [],
    clientId: "bench-client",
    clientSecret: "bench-secret",
    clientSecretDropped: false,
  };
  const redirectUri = oidcSpDetails(provider.id).redirect_uri;
  const request = { requestId: "bench", ip: "127.0.0.1", userAgent: "bench" };

  async function prepare(n: number) {
    const items: { state: string; binding: string; callback: URL }[] = [];
    const tokens: [string, object][] = [];
    for (let i = 0; i < n; i++) {
      const sub = randomUUID();
      const email = `${sub.slice(0, 12)}@${domain}`;
      const pending = newPending({ tenantId: tenant.id, providerId: provider.id, protocol: "oidc", purpose: "console", loginHint: email });
      const binding = randomUUID();
      await storePending(db, pending, binding);
      const now = Math.floor(Date.now() / 1000);
      const idToken = await new SignJWT({ email, email_verified: true, given_name: "Bench", family_name: "Person", nonce: pending.nonce })
        .setProtectedHeader({ alg: "RS256", kid })
        .setIssuer(stub.issuer)
        .setAudience("bench-client")
        .setSubject(sub)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(privateKey as CryptoKey);
      const code = randomUUID();
      tokens.push([code, { access_token: randomUUID(), token_type: "Bearer", expires_in: 600, id_token: idToken }]);
      const callback = new URL(redirectUri);
      callback.search = new URLSearchParams({ code, state: pending.state }).toString();
      items.push({ state: pending.state, binding, callback });
    }
    await stub.send({ type: "tokens", tokens });
    return items;
  }

  return {
    async run(n, concurrency) {
      const items = await prepare(n);
      let next = 0;
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < items.length) {
            const item = items[next++]!;
            const pending = await takePendingSignIn(db, item.state, provider.id, [item.binding]);
            if (!pending) throw new Error("no pending request");
            const profile = await completeOidc(provider, pending, item.callback);
            const result = await completeSignIn(db, pending, provider, { ok: true, profile }, request);
            if (!result.session) throw new Error(`not signed in: ${result.location}`);
            await sessionCookie({ ...result.session, email: profile.email });
          }
        }),
      );
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const used = process.cpuUsage(cpu);
      return {
        perSecond: (n / wallMs) * 1000,
        cpuMsPerSignIn: (used.user + used.system) / 1000 / n,
        wallMsPerSignIn: wallMs / n,
      };
    },
    close: () => stub.close(),
  };
}
