/** The catalog's kinds about a tenant, its people, invitations and API tokens. */
import { z } from "zod";
import { Changes, details, iso, kind, EXAMPLE_ID } from "./define.ts";

const email = z.string().meta({ description: "The user's email." });
const role = z.string().meta({ description: "The tenant role: admin or viewer." });

export const identityKinds = {
  "tenant.created": kind({
    group: "tenant",
    description: "A tenant was created.",
    target: "tenant",
    details: details({ name: z.string() }),
    example: { name: "Acme" },
  }),
  "user.created": kind({
    group: "user",
    description: "A user joined the tenant (added, invited, first SSO sign-in or a directory), or a platform user was created.",
    target: "user",
    details: details({
      email,
      role: role.optional(),
      platform_role: z.string().nullable().optional(),
      new_user: z.boolean().optional(),
      via: z.string().optional(),
      method: z.string().optional(),
      provider_id: z.string().optional(),
    }),
    example: { email: "grace@example.com", role: "viewer", new_user: true, via: "invitation" },
  }),
  "user.updated": kind({
    group: "user",
    description: "A user's role, password or platform role changed.",
    target: "user",
    details: details({ email: email.optional(), changes: Changes, sessions_ended: z.number().int().optional() }),
    example: { email: "grace@example.com", changes: { role: { from: "viewer", to: "admin" } } },
  }),
  "user.removed": kind({
    group: "user",
    description: "A user was removed from the tenant (their sessions in it end).",
    target: "user",
    details: details({ email, role }),
    example: { email: "grace@example.com", role: "viewer" },
  }),
  "user.login": kind({
    group: "user",
    description: "A user signed in to the console, with a password or through SSO.",
    target: "user",
    details: details({
      method: z.enum(["password", "sso"]),
      provider_id: z.string().optional(),
      provider_type: z.string().optional(),
      protocol: z.string().optional(),
    }),
    example: { method: "password" },
  }),
  "user.login_failed": kind({
    group: "user",
    description: "A password sign-in was refused (wrong password, unknown user or rate limited).",
    target: "user",
    details: details({ email: z.string().meta({ description: "The email as typed." }), reason: z.string() }),
    example: { email: "grace@example.com", reason: "wrong_password" },
  }),
  "user.step_up": kind({
    group: "user",
    description: "A user proved who they are again (step-up) before a sensitive action.",
    target: "user",
    details: details({ via: z.string(), method: z.string(), provider_id: z.string().optional(), expires_at: iso() }),
    example: { via: "session", method: "password", expires_at: "2026-12-05T10:15:00.000Z" },
  }),
  "user.password_reset": kind({
    group: "user",
    description: "A user reset their password from an emailed link; their sessions and tokens end.",
    target: "user",
    details: details({ email, sessions_ended: z.number().int(), tokens_revoked: z.number().int() }),
    example: { email: "grace@example.com", sessions_ended: 2, tokens_revoked: 1 },
  }),
  "user.sessions_ended": kind({
    group: "user",
    description: "A user ended console sessions (one, or all but the current).",
    target: "user",
    details: details({ reason: z.string(), count: z.number().int() }),
    example: { reason: "ended_by_user", count: 1 },
  }),
  "invitation.created": kind({
    group: "invitation",
    description: "Someone was invited to the tenant by email.",
    target: "invitation",
    details: details({ email, role, expires_at: iso() }),
    example: { email: "grace@example.com", role: "viewer", expires_at: "2026-12-12T09:00:00.000Z" },
  }),
  "invitation.resent": kind({
    group: "invitation",
    description: "An invitation's email was sent again, with a new link.",
    target: "invitation",
    details: details({ email, role }),
    example: { email: "grace@example.com", role: "viewer" },
  }),
  "invitation.revoked": kind({
    group: "invitation",
    description: "An invitation was revoked before it was accepted.",
    target: "invitation",
    details: details({ email, role }),
    example: { email: "grace@example.com", role: "viewer" },
  }),
  "invitation.accepted": kind({
    group: "invitation",
    description: "An invitation was accepted: its user is now a member.",
    target: "invitation",
    details: details({ email, role, user_id: z.string() }),
    example: { email: "grace@example.com", role: "viewer", user_id: EXAMPLE_ID },
  }),
  "api_token.created": kind({
    group: "api_token",
    description: "An API token was created.",
    target: "api_token",
    details: details({
      name: z.string(),
      user_id: z.string(),
      tenant_id: z.string().nullable(),
      read_only: z.boolean(),
      expires_at: iso().nullable(),
    }),
    example: { name: "CI", user_id: EXAMPLE_ID, tenant_id: EXAMPLE_ID, read_only: true, expires_at: null },
  }),
  "api_token.revoked": kind({
    group: "api_token",
    description: "An API token was revoked (by hand, or because its user left or reset their password).",
    target: "api_token",
    details: details({ name: z.string(), user_id: z.string(), tenant_id: z.string().nullable() }),
    example: { name: "CI", user_id: EXAMPLE_ID, tenant_id: EXAMPLE_ID },
  }),
};
