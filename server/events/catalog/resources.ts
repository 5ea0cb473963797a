/** The catalog's kinds about webhooks, verified domains, setup links and the audit log itself. */
import { z } from "zod";
import { Changes, details, iso, kind, EXAMPLE_ID } from "./define.ts";

const url = z.string().meta({ description: "The webhook's URL." });
const webhookPatched = (description: string, example: Record<string, unknown>) =>
  kind({
    group: "webhook",
    description,
    target: "webhook",
    details: details({ url, changes: Changes, reason: z.string().optional() }),
    example: { url: "https://hooks.acme.com/cp", ...example } as { url: string; changes: Record<string, { from: unknown; to: unknown }> },
  });
const domain = z.string().meta({ description: "The domain name." });

export const resourceKinds = {
  "webhook.created": kind({
    group: "webhook",
    description: "A webhook was created.",
    target: "webhook",
    details: details({ url, events: z.array(z.string()), description: z.string().nullable(), enabled: z.boolean() }),
    example: { url: "https://hooks.acme.com/cp", events: ["user.*"], description: "User sync", enabled: true },
  }),
  "webhook.updated": webhookPatched("A webhook's URL, kinds or description changed.", {
    changes: { events: { from: ["user.*"], to: ["*"] } },
  }),
  "webhook.enabled": webhookPatched("A webhook was turned on.", { changes: { enabled: { from: false, to: true } } }),
  "webhook.disabled": webhookPatched("A webhook was turned off, by hand or because its endpoint kept failing (`reason`).", {
    changes: { enabled: { from: true, to: false } },
    reason: "Failing for 5 days",
  }),
  "webhook.deleted": kind({
    group: "webhook",
    description: "A webhook was deleted.",
    target: "webhook",
    details: details({ url, events: z.array(z.string()) }),
    example: { url: "https://hooks.acme.com/cp", events: ["*"] },
  }),
  "webhook.secret_rotated": kind({
    group: "webhook",
    description: "A webhook's signing secret was replaced; the old one keeps signing until `previous_secret_expires_at`.",
    target: "webhook",
    details: details({ url, previous_secret_expires_at: iso() }),
    example: { url: "https://hooks.acme.com/cp", previous_secret_expires_at: "2026-12-06T09:00:00.000Z" },
  }),
  "domain.created": kind({
    group: "domain",
    description: "A domain was added; it awaits its DNS TXT record.",
    target: "domain",
    details: details({ domain, record_name: z.string() }),
    example: { domain: "acme.com", record_name: "_control-plane.acme.com" },
  }),
  "domain.verified": kind({
    group: "domain",
    description: "A domain was verified, by its DNS record or by an operator (`method`).",
    target: "domain",
    details: details({ domain, method: z.string(), reason: z.string().optional() }),
    example: { domain: "acme.com", method: "dns" },
  }),
  "domain.updated": kind({
    group: "domain",
    description: "A domain's settings (auto-join) changed.",
    target: "domain",
    details: details({ domain, changes: Changes }),
    example: { domain: "acme.com", changes: { auto_join: { from: false, to: true } } },
  }),
  "domain.verification_failed": kind({
    group: "domain",
    description: "A domain's DNS check failed (`result`), or a verified domain lost its record.",
    target: "domain",
    details: details({ domain, previous_state: z.string(), result: z.string(), reason: z.string().nullable() }),
    example: { domain: "acme.com", previous_state: "pending", result: "no_record", reason: "No TXT record at _control-plane.acme.com" },
  }),
  "domain.deleted": kind({
    group: "domain",
    description: "A domain was removed.",
    target: "domain",
    details: details({ domain, state: z.string() }),
    example: { domain: "acme.com", state: "verified" },
  }),
  "setup_link.created": kind({
    group: "setup_link",
    description: "An admin made a setup link for a customer's IT admin.",
    target: "setup_link",
    details: details({
      intent: z.string(),
      expires_at: iso(),
      sso_provider_id: z.string().nullable(),
      directory_id: z.string().nullable(),
    }),
    example: { intent: "sso", expires_at: "2026-12-12T09:00:00.000Z", sso_provider_id: null, directory_id: null },
  }),
  "setup_link.opened": kind({
    group: "setup_link",
    description: "A setup link was opened: a setup session began.",
    target: "setup_link",
    details: details({ intent: z.string(), session_id: z.string(), session_expires_at: iso() }),
    example: { intent: "sso", session_id: EXAMPLE_ID, session_expires_at: "2026-12-05T13:00:00.000Z" },
  }),
  "setup_link.revoked": kind({
    group: "setup_link",
    description:
      "A setup link was revoked; its sessions end. A `directory_sync` link's directory and its token live on (`directory_id`), unless the token was rotated in the same step (`directory_token_rotated`, with its own `directory.token_rotated`).",
    target: "setup_link",
    details: details({
      intent: z.string(),
      sessions_ended: z.number().int(),
      directory_id: z.string().nullable().optional(),
      directory_token_rotated: z.boolean().optional(),
    }),
    example: { intent: "sso", sessions_ended: 0 },
  }),
  "audit.exported": kind({
    group: "audit",
    description: "The audit log was exported (with the filters used).",
    target: "tenant",
    details: details({ format: z.string(), filters: z.record(z.string(), z.unknown()), exported_through_sequence: z.number().int() }),
    example: { format: "csv", filters: { event_type: "user.*" }, exported_through_sequence: 1204 },
  }),
  "audit.searched": kind({
    group: "audit",
    description:
      "An operator or support user searched every tenant's audit log (GET /audit) or exported the result: who (the actor), the filters given, and the export's format or the number of results. A platform event (no tenant).",
    target: null,
    details: details({
      filters: z.record(z.string(), z.string()),
      results: z.number().int().optional(),
      format: z.string().optional(),
    }),
    example: { filters: { actor_email: "ada@example.com", event_type: "user.*" }, results: 12 },
  }),
  "audit.retention_purged": kind({
    group: "audit",
    description: "Audit events past retention were purged; the chain stays verifiable from its anchor.",
    target: null,
    details: details({
      retention_days: z.number().int(),
      purged_before: iso(),
      events_purged: z.number().int(),
      anchor_sequence: z.number().int(),
      anchor_hash: z.string(),
      partitions: z.array(z.string()),
    }),
    example: {
      retention_days: 2555,
      purged_before: "2019-12-01T00:00:00.000Z",
      events_purged: 18_204,
      anchor_sequence: 18_204,
      anchor_hash: "9f2c".padEnd(64, "0"),
      partitions: ["audit_events_2019_11"],
    },
  }),
};
