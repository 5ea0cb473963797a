/**
 * SAML signing certificates near their end. Housekeeping announces each enabled SAML provider's
 * certificate once when it comes within 30 days, once within 7 and once when it has expired
 * (`sso_provider.certificate_expiring`, in the tenant's audit chain and to its webhooks). What was
 * announced is kept on the provider with the certificate's end date, so a threshold is never
 * announced twice for one certificate (across instances and restarts: the row is locked while
 * the event is written), and a new certificate (another end date) starts over.
 *
 * Disabled providers are left out, of the announcements and of the operators' list: they route no
 * sign-in, so an expiring certificate breaks nothing. Enabling one later announces the threshold
 * it is in then. The date is the one the last metadata check read (`metadata_details`).
 */
import type { Database } from "../db/client.ts";
import type { SqlStatements } from "../db/sql.ts";
import { keysetPage, keysetSql, type PageRequest } from "../db/keyset.ts";
import { clock } from "../clock.ts";
import { Forbidden } from "../errors.ts";
import { emitEvent, SYSTEM_ACTOR } from "../events/emit.ts";
import { seesAllTenants } from "../auth/policy.ts";
import type { ServiceContext } from "../service-context.ts";
import {
  CERTIFICATE_URGENT_DAYS,
  CERTIFICATE_WARNING_DAYS,
  type CertificateThreshold,
  type ExpiringCertificate,
} from "./certificate-schemas.ts";
import type { ProviderType } from "./schemas.ts";

const DAY = 24 * 60 * 60 * 1000;

/** What the job last announced for a provider (column `certificate_expiry_notified`). */
interface Notified {
  expires_at: string;
  threshold: CertificateThreshold;
}

/** The threshold a certificate ending at `expiresAt` is in at `now`: 0 expired, 7, 30, or none. */
function thresholdAt(expiresAt: Date, now: Date): CertificateThreshold | null {
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return 0;
  if (left <= CERTIFICATE_URGENT_DAYS * DAY) return CERTIFICATE_URGENT_DAYS;
  if (left <= CERTIFICATE_WARNING_DAYS * DAY) return CERTIFICATE_WARNING_DAYS;
  return null;
}

/** Whole days left, rounded down (negative once expired), as the console counts them. */
const daysLeft = (expiresAt: Date, now: Date) => Math.floor((expiresAt.getTime() - now.getTime()) / DAY);

const EXPIRES_AT = `(p.metadata_details->>'certificate_expires_at')::timestamptz`;
/** Enabled SAML providers whose last metadata check read a certificate end date. */
const ANNOUNCEABLE = `p.enabled AND p.protocol = 'saml' AND p.metadata_details ? 'certificate_expires_at'`;

interface Candidate {
  id: string;
  tenant_id: string;
  name: string;
  expires_at: Date;
  entity_id: string | null;
  notified: Notified | null;
}

const SELECT_CANDIDATE = `SELECT p.id, p.tenant_id, p.name, ${EXPIRES_AT} AS expires_at,
  p.metadata_details->>'entity_id' AS entity_id, p.certificate_expiry_notified AS notified
  FROM sso_providers p`;

/** A threshold is due when the certificate is in one and it is past (smaller than) what was announced for that certificate. */
function dueThreshold(candidate: Candidate, now: Date): CertificateThreshold | null {
  const threshold = thresholdAt(candidate.expires_at, now);
  if (threshold === null) return null;
  const { notified } = candidate;
  const sameCertificate = notified && Date.parse(notified.expires_at) === candidate.expires_at.getTime();
  return sameCertificate && notified.threshold <= threshold ? null : threshold;
}

/** Under the provider's row lock, so two instances announcing at once emit once. */
async function announce(tx: SqlStatements, providerId: string, now: Date): Promise<boolean> {
  const [provider] = await tx.query<Candidate>(`${SELECT_CANDIDATE} WHERE p.id = $1::uuid AND ${ANNOUNCEABLE} FOR UPDATE OF p`, [
    providerId,
  ]);
  const threshold = provider ? dueThreshold(provider, now) : null;
  if (!provider || threshold === null) return false;
  const expiresAt = provider.expires_at.toISOString();
  await emitEvent(tx, SYSTEM_ACTOR, {
    type: "sso_provider.certificate_expiring",
    tenantId: provider.tenant_id,
    target: { type: "sso_provider", id: provider.id, name: provider.name },
    details: { expires_at: expiresAt, days_left: daysLeft(provider.expires_at, now), threshold, entity_id: provider.entity_id },
  });
  const notified: Notified = { expires_at: expiresAt, threshold };
  // Not through Prisma: announcing is not a change of the provider (its updated_at stays).
  await tx.query(`UPDATE sso_providers SET certificate_expiry_notified = $2::jsonb WHERE id = $1::uuid`, [
    provider.id,
    JSON.stringify(notified),
  ]);
  return true;
}

/** Housekeeping: announces every certificate that entered a threshold since its last announcement. Returns how many. */
export async function announceExpiringCertificates(db: Database): Promise<number> {
  const now = clock.now();
  const horizon = new Date(now.getTime() + CERTIFICATE_WARNING_DAYS * DAY);
  const candidates = await db.sql.query<Candidate>(`${SELECT_CANDIDATE} WHERE ${ANNOUNCEABLE} AND ${EXPIRES_AT} <= $1::timestamptz`, [
    horizon,
  ]);
  let announced = 0;
  for (const candidate of candidates) {
    if (dueThreshold(candidate, now) === null) continue;
    if (await db.sql.transaction((tx) => announce(tx, candidate.id, now))) announced++;
  }
  return announced;
}

interface ExpiringRow {
  tenant_id: string;
  tenant_name: string;
  provider_id: string;
  provider_name: string;
  provider_type: string;
  expires_at: Date;
}

export function presentExpiring(row: ExpiringRow): ExpiringCertificate {
  return {
    tenant_id: row.tenant_id,
    tenant_name: row.tenant_name,
    provider_id: row.provider_id,
    provider_name: row.provider_name,
    provider_type: row.provider_type as ProviderType,
    certificate_expires_at: row.expires_at.toISOString(),
    days_left: daysLeft(row.expires_at, clock.now()),
  };
}

/**
 * Every enabled SAML provider, in any tenant, whose certificate ends within `withinDays` (expired
 * ones included), soonest first. Operators and support only.
 */
export async function listExpiringCertificates({ db, actor: { principal } }: ServiceContext, page: PageRequest, withinDays?: number) {
  if (!seesAllTenants(principal)) throw Forbidden("Only platform operators and support staff may list expiring certificates");
  const horizon = new Date(clock.now().getTime() + (withinDays ?? CERTIFICATE_WARNING_DAYS) * DAY);
  const condition = `${ANNOUNCEABLE} AND ${EXPIRES_AT} <= $1::timestamptz`;
  return keysetPage<ExpiringRow>(page, {
    key: (row) => ({ at: row.expires_at, id: row.provider_id }),
    count: async () =>
      (await db.sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM sso_providers p WHERE ${condition}`, [horizon]))[0]!.count,
    // Soonest first: the pager's forward direction ("desc") is ascending end dates here.
    find: ({ after, order, skip, take }) => {
      const direction = order === "desc" ? "asc" : "desc";
      const params: unknown[] = [horizon];
      const bound = keysetSql([EXPIRES_AT, "p.id"], after, direction, params);
      params.push(take, skip);
      return db.sql.query<ExpiringRow>(
        `SELECT p.tenant_id, t.name AS tenant_name, p.id AS provider_id, p.name AS provider_name, p.provider_type,
                ${EXPIRES_AT} AS expires_at
         FROM sso_providers p JOIN tenants t ON t.id = p.tenant_id
         WHERE ${condition} AND ${bound}
         ORDER BY ${EXPIRES_AT} ${direction}, p.id ${direction} LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
    },
  });
}
