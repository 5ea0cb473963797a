import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { JsonBoolean, text } from "../contract/fields.ts";

export const DOMAIN_STATES = ["pending", "verified", "failed"] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** What the last lookup of the TXT record found. `unavailable` (timeout, SERVFAIL) says nothing about the record. */
export const CHECK_RESULTS = ["match", "wrong_value", "no_record", "unavailable"] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

export const VERIFICATION_METHODS = ["dns", "override"] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** A pending domain not verified this long after it was added is given up as failed. */
export const PENDING_DAYS = 7;
export const MAX_REASON_LENGTH = 500;

const MAX_INPUT_LENGTH = 300;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV6ISH = /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/;

/**
 * A domain as typed (`Bücher.Example.`) → its stored form (`xn--bcher-kva.example`): lowercase,
 * IDNA to punycode, no trailing dot. The IDNA step is the WHATWG URL host parser, the algorithm
 * of `node:url`'s `domainToASCII`, here through `URL` so the console's forms can run it too. No
 * wildcards, no IP addresses (which the parser also reads in forms like `0x7f.1`), at least one dot.
 */
export function normaliseDomain(input: string): { domain: string } | { error: string } {
  const raw = input.trim().toLowerCase();
  if (!raw) return { error: "is required" };
  if (raw.includes("*")) return { error: "must be a domain name, not a wildcard: add example.com, not *.example.com" };
  const bare = raw.endsWith(".") ? raw.slice(0, -1) : raw;
  if (IPV6ISH.test(bare)) return { error: "must be a domain name, not an IP address" };
  if (/[\s/\\:@?#%[\]]/.test(bare)) return { error: "must be a domain name such as example.com (no scheme, path, port or spaces)" };
  let ascii: string;
  try {
    ascii = new URL(`http://${bare}/`).hostname;
  } catch {
    return { error: "must be a domain name such as example.com" };
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ascii)) return { error: "must be a domain name, not an IP address" };
  if (!ascii.includes(".")) return { error: "must have a dot: a domain such as example.com" };
  const labels = ascii.split(".");
  if (ascii.length > 253 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
    return { error: "must be a domain name such as example.com (letters, digits and hyphens)" };
  }
  return { domain: ascii };
}

export const DomainName = text({ error: "must be a string" })
  .max(MAX_INPUT_LENGTH, `must be at most ${MAX_INPUT_LENGTH} characters`)
  .transform((value, ctx) => {
    const result = normaliseDomain(value);
    if ("error" in result) {
      ctx.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    }
    return result.domain;
  })
  .meta({ description: "A domain name, e.g. example.com; stored lowercase, in punycode (IDNA), without a trailing dot." });

const TenantPath = { tenant_id: z.string().max(100) };
const DomainPath = { ...TenantPath, domain_id: z.string().max(100) };

export const Domain = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    domain: z.string(),
    state: z.enum(DOMAIN_STATES).meta({
      description:
        "`pending` until the TXT record is found; `verified` once it is (or an operator said so); " +
        "`failed` when it was not found within 7 days, or a verified domain's record was later gone or changed.",
    }),
    verification: z
      .object({
        type: z.literal("dns_txt"),
        name: z.string().meta({ description: "The record's name: `_control-plane-verification.<domain>`." }),
        value: z.string().meta({ description: "The TXT value to publish there, exactly." }),
      })
      .meta({ description: "The DNS record that proves ownership." }),
    verified_at: z.iso.datetime().nullable(),
    last_checked_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    verification_method: z
      .enum(VERIFICATION_METHODS)
      .nullable()
      .meta({ description: "How it was verified: `dns`, or `override` by a platform operator; null while never verified." }),
    last_check_result: z
      .enum(CHECK_RESULTS)
      .nullable()
      .meta({
        description:
          "The last lookup: `match`, `wrong_value` (TXT records there, none with the value), `no_record` (NXDOMAIN or no TXT), " +
          "`unavailable` (timeout or server failure: says nothing about the record, checked again later).",
      }),
    last_error: z.string().nullable().meta({ description: "Why the domain is not (or no longer) verified, in words; null when it is." }),
    next_check_at: z.iso.datetime().nullable().meta({ description: "When housekeeping looks again; null when it will not." }),
    routes_sign_ins: z.boolean().meta({
      description:
        "Whether SSO sign-ins with an email here reach the tenant's provider: when verified, or, for a domain a provider routed " +
        "before domains were verified, while it is still pending (until it fails).",
    }),
    auto_join: z.boolean().meta({
      description:
        "A person not yet a member who signs in through the tenant's SSO with an email here joins the tenant with the " +
        "provider's default role. Only a verified domain may turn it on; off, only members (invited, say) sign in.",
    }),
  })
  .meta({ id: "Domain" });
export type Domain = z.infer<typeof Domain>;

export const ListDomainsInput = PageQuery.extend(TenantPath);
export const DomainPage = pageOf(Domain).meta({ id: "DomainPage" });

export const CreateDomainInput = z.strictObject({ ...TenantPath, domain: DomainName }).meta({ id: "CreateDomainRequest" });
export type CreateDomainInput = z.infer<typeof CreateDomainInput>;

export const DomainPathInput = z.object(DomainPath);

export const UpdateDomainInput = z.strictObject({ ...DomainPath, auto_join: JsonBoolean.optional() }).meta({ id: "UpdateDomainRequest" });
export type UpdateDomainInput = z.infer<typeof UpdateDomainInput>;

export const VerifyDomainInput = z
  .strictObject({
    ...DomainPath,
    override: JsonBoolean.optional().meta({
      description: "Platform operators only: mark the domain verified without DNS (403 for anyone else). Needs `reason`.",
    }),
    reason: text({ error: "must be a string" })
      .trim()
      .min(1, "is required")
      .max(MAX_REASON_LENGTH, `must be at most ${MAX_REASON_LENGTH} characters`)
      .optional()
      .meta({ description: "Why the operator vouches for the domain; recorded in the audit log." }),
  })
  .superRefine((input, ctx) => {
    if (input.override && !input.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "is required with override" });
  })
  .meta({ id: "VerifyDomainRequest" });
export type VerifyDomainInput = z.infer<typeof VerifyDomainInput>;
