/** The catalog's kinds about SSO: a tenant's providers, sign-ins through them, the OAuth broker. */
import { z } from "zod";
import { Changes, details, iso, kind, EXAMPLE_ID } from "./define.ts";

const name = z.string().meta({ description: "The provider's name." });
const patched = (description: string) =>
  kind({
    group: "sso",
    description,
    target: "sso_provider",
    details: details({ name, changes: Changes }),
    example: { name: "Okta", changes: { enabled: { from: false, to: true } } },
  });
const application = (description: string) =>
  kind({
    group: "sso",
    description,
    target: "sso_application",
    details: details({ name: z.string(), client_id: z.string() }),
    example: { name: "Billing", client_id: "cpa_5kq2x8w1" },
  });

export const ssoKinds = {
  "sso_provider.created": kind({
    group: "sso",
    description: "A SAML or OIDC identity provider was added to the tenant.",
    target: "sso_provider",
    details: details({
      name,
      provider_type: z.string(),
      metadata_url: z.string().nullable(),
      metadata_source: z.string().optional().meta({ description: "url or xml" }),
      metadata_sha256: z.string().optional(),
      enabled: z.boolean(),
      domains: z.array(z.string()),
      client_id: z.string().nullable(),
      client_secret_set: z.boolean(),
      default_role: z.string().nullable(),
      allow_idp_initiated: z.boolean(),
      entra_tenant_ids: z.array(z.string()),
    }),
    example: {
      name: "Okta",
      provider_type: "saml",
      metadata_url: "https://acme.okta.com/app/exk1/sso/saml/metadata",
      metadata_source: "url",
      enabled: false,
      domains: ["acme.com"],
      client_id: null,
      client_secret_set: false,
      default_role: "viewer",
      allow_idp_initiated: false,
      entra_tenant_ids: [],
    },
  }),
  "sso_provider.updated": patched("An identity provider's settings changed."),
  "sso_provider.enabled": patched("An identity provider was turned on: its users may sign in."),
  "sso_provider.disabled": patched("An identity provider was turned off: the sessions it opened end."),
  "sso_provider.deleted": kind({
    group: "sso",
    description: "An identity provider was deleted: the sessions it opened end.",
    target: "sso_provider",
    details: details({ name, provider_type: z.string(), metadata_url: z.string().nullable() }),
    example: { name: "Okta", provider_type: "saml", metadata_url: null },
  }),
  "sso_provider.certificate_expiring": kind({
    group: "sso",
    description: "A SAML provider's signing certificate expires soon (announced 30, 7 and 1 days ahead).",
    target: "sso_provider",
    details: details({ expires_at: iso(), days_left: z.number().int(), threshold: z.number().int(), entity_id: z.string().nullable() }),
    example: { expires_at: "2026-12-30T00:00:00.000Z", days_left: 7, threshold: 7, entity_id: "http://www.okta.com/exk1" },
  }),
  "sso.login_failed": kind({
    group: "sso",
    description: "A sign-in through an identity provider was refused; `reason` says why.",
    target: "sso_provider",
    details: details({
      reason: z.string(),
      detail: z.string().nullable().optional(),
      provider_id: z.string().nullable().optional(),
      purpose: z.string().nullable().optional(),
      email: z.string().optional(),
    }),
    example: { reason: "invalid_signature", detail: "The response's signature does not verify", provider_id: EXAMPLE_ID, purpose: "login" },
  }),
  "sso.broker_login": kind({
    group: "sso",
    description: "A user signed in to an application through the SSO broker.",
    target: "sso_provider",
    details: details({
      application_id: z.string(),
      provider_id: z.string(),
      provider_type: z.string(),
      protocol: z.string(),
      profile_id: z.string(),
      email: z.string(),
    }),
    example: {
      application_id: EXAMPLE_ID,
      provider_id: EXAMPLE_ID,
      provider_type: "okta",
      protocol: "saml",
      profile_id: EXAMPLE_ID,
      email: "grace@acme.com",
    },
  }),
  "sso.application_created": kind({
    group: "sso",
    description: "The operator registered an application with the SSO broker (platform event).",
    target: "sso_application",
    details: details({ name: z.string(), client_id: z.string(), redirect_uris: z.array(z.string()) }),
    example: { name: "Billing", client_id: "cpa_5kq2x8w1", redirect_uris: ["https://billing.example.com/callback"] },
  }),
  "sso.application_updated": kind({
    group: "sso",
    description: "A broker application's settings changed (platform event).",
    target: "sso_application",
    details: details({ changes: Changes }),
    example: { changes: { name: { from: "Billing", to: "Invoices" } } },
  }),
  "sso.application_deleted": application("A broker application was deleted (platform event)."),
  "sso.application_secret_rotated": application("A broker application's client secret was replaced (platform event)."),
};
