/**
 * Pending sign-in requests in Postgres (sso_signin_requests): any instance can take the callback.
 * A request is taken at most once (an atomic UPDATE … WHERE consumed_at IS NULL), and only by the
 * browser that started it: the row keeps the SHA-256 of a random cookie set on that browser, so a
 * callback URL replayed in another browser (login CSRF) finds nothing.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Database } from "../../db/client.ts";
import { clock } from "../../clock.ts";
import { isUuid } from "../../db/ids.ts";
import {
  SsoRefused,
  type BrokerRequest,
  type PendingSignIn,
  type SignInPurpose,
  type SsoProtocol,
  type TakePendingSignIn,
} from "./protocol.ts";

/** How long the IdP has to send the browser back. */
export const PENDING_TTL_MS = 10 * 60_000;
/** How long a Test sign-in result stays readable after the request expired. */
export const TEST_RESULT_TTL_MS = 60 * 60_000;

const random = (bytes = 32) => randomBytes(bytes).toString("base64url");
export const bindingHash = (binding: string) => createHash("sha256").update(binding).digest("hex");

export interface NewPending {
  tenantId: string;
  providerId: string;
  protocol: SsoProtocol;
  purpose: SignInPurpose;
  returnTo?: string | null;
  initiatedBy?: string | null;
  loginHint?: string | null;
  broker?: BrokerRequest | null;
}

/** A fresh request with every random value drawn (not stored yet: see storePending). */
export function newPending(input: NewPending): PendingSignIn {
  const now = clock.now();
  return {
    id: randomUUID(),
    tenantId: input.tenantId,
    providerId: input.providerId,
    protocol: input.protocol,
    purpose: input.purpose,
    state: random(),
    nonce: random(),
    codeVerifier: random(48),
    // An xsd:ID must not start with a digit.
    requestId: `_${randomBytes(20).toString("hex")}`,
    returnTo: input.returnTo ?? null,
    initiatedBy: input.initiatedBy ?? null,
    loginHint: input.loginHint ?? null,
    broker: input.broker ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + PENDING_TTL_MS),
  };
}

/** Stores the request, bound to `binding` (a namespaced binding of ./binding.ts). */
export async function storePending(db: Database, pending: PendingSignIn, binding: string): Promise<void> {
  await db.prisma.ssoSignInRequest.create({
    data: {
      id: pending.id,
      state: pending.state,
      tenantId: pending.tenantId,
      providerId: pending.providerId,
      protocol: pending.protocol,
      purpose: pending.purpose,
      nonce: pending.nonce,
      codeVerifier: pending.codeVerifier,
      requestId: pending.requestId,
      bindingHash: bindingHash(binding),
      returnTo: pending.returnTo,
      initiatedBy: pending.initiatedBy,
      loginHint: pending.loginHint,
      brokerApplicationId: pending.broker?.applicationId ?? null,
      brokerRedirectUri: pending.broker?.redirectUri ?? null,
      brokerClientState: pending.broker?.clientState ?? null,
      brokerCodeChallenge: pending.broker?.codeChallenge ?? null,
      createdAt: pending.createdAt,
      expiresAt: pending.expiresAt,
    },
  });
}

export function newBinding(): string {
  return random();
}

interface Row {
  id: string;
  state: string;
  tenant_id: string;
  provider_id: string;
  protocol: string;
  purpose: string;
  nonce: string;
  code_verifier: string;
  request_id: string;
  return_to: string | null;
  initiated_by: string | null;
  login_hint: string | null;
  broker_application_id: string | null;
  broker_redirect_uri: string | null;
  broker_client_state: string | null;
  broker_code_challenge: string | null;
  created_at: Date;
  expires_at: Date;
}

function fromRow(row: Row): PendingSignIn {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    providerId: row.provider_id,
    protocol: row.protocol === "saml" ? "saml" : "oidc",
    purpose: row.purpose as SignInPurpose,
    state: row.state,
    nonce: row.nonce,
    codeVerifier: row.code_verifier,
    requestId: row.request_id,
    returnTo: row.return_to,
    initiatedBy: row.initiated_by,
    loginHint: row.login_hint,
    broker:
      row.broker_application_id && row.broker_redirect_uri && row.broker_code_challenge
        ? {
            applicationId: row.broker_application_id,
            redirectUri: row.broker_redirect_uri,
            clientState: row.broker_client_state,
            codeChallenge: row.broker_code_challenge,
          }
        : null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/**
 * Takes (consumes) the request with this state for this provider, from a browser holding one of
 * `bindings` (the binding cookie; the signed-in admin's user for a Test sign-in). Null when there is none, it was already taken, or another browser started it; throws
 * SsoRefused("expired_request") when it is past its 10 minutes (it is consumed all the same).
 */
export const takePendingSignIn: TakePendingSignIn = async (db, state, providerId, bindings) => {
  if (!state || state.length > 200 || bindings.length === 0 || !isUuid(providerId)) return null;
  const [row] = await db.sql.query<Row>(
    `UPDATE sso_signin_requests SET consumed_at = $4
     WHERE state = $1 AND provider_id = $2::uuid AND binding_hash = ANY($3::text[]) AND consumed_at IS NULL
     RETURNING *`,
    [state, providerId, bindings.map(bindingHash), clock.now()],
  );
  if (!row) return null;
  if (row.expires_at.getTime() <= clock.now().getTime()) {
    throw new SsoRefused("expired_request", "the sign-in was started more than 10 minutes ago; start again");
  }
  return fromRow(row);
};

/** What a Test sign-in found, kept on its request row for the admin who started it. */
export type TestResult =
  { ok: true; profile: import("./protocol.ts").SsoProfile; domain_matches: boolean } | { ok: false; reason: string; detail: string };

export async function storeTestResult(db: Database, pendingId: string, result: TestResult): Promise<void> {
  await db.prisma.ssoSignInRequest.update({
    where: { id: pendingId },
    data: { result: result as object, consumedAt: clock.now(), expiresAt: new Date(clock.now().getTime() + TEST_RESULT_TTL_MS) },
  });
}

/** Housekeeping: requests past their expiry (Test sign-in results after their hour). */
export async function purgeExpiredSignIns(db: Database): Promise<number> {
  const { count } = await db.prisma.ssoSignInRequest.deleteMany({ where: { expiresAt: { lt: new Date(clock.now().getTime() - 60_000) } } });
  return count;
}
