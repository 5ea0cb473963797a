/**
 * The shape of an outbound URL (SSO metadata, webhook targets), pure zod so the console checks the
 * same thing. Where such a URL may point (https, private hosts) depends on the environment: that
 * rule is ./url-policy.ts, which the services apply.
 */
import { z } from "zod";

export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL of at most MAX_URL_LENGTH characters; url-policy.ts decides the rest. */
export const OutboundUrl = z
  .string({ error: "is required and must be a string" })
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .refine((value) => {
    try {
      const { protocol } = new URL(value);
      return protocol === "https:" || protocol === "http:";
    } catch {
      return false;
    }
  }, "must be an absolute https URL");

/** What this server lets outbound URLs point at (OUTBOUND_ALLOW_PRIVATE), for the console's forms. */
export const OutboundPolicy = z.object({
  private_hosts: z.boolean().meta({ description: "True: private and loopback hosts are allowed, over plain http too." }),
});
export type OutboundPolicy = z.infer<typeof OutboundPolicy>;

/**
 * Said with every refusal of a private address: the tenant admin learns it is this server's
 * rule, the operator which variable lifts it (local IdPs and receivers, tests).
 */
export const PRIVATE_REFUSED = "refused on this server; operators: OUTBOUND_ALLOW_PRIVATE=true allows them";
