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
