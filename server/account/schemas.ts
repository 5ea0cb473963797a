import { z } from "zod";
import { Email, JsonBoolean, Password, PersonName, text } from "../contract/fields.ts";
import { pageOf, PageQuery, SearchQuery } from "../contract/page-query.ts";
import { PLATFORM_ROLES, TENANT_ROLES } from "../auth/principal.ts";

/**
 * Thrown to next-auth (as this prefix plus the seconds to wait) so the sign-in form can tell
 * "wait" from "wrong password".
 */
export const RATE_LIMITED_PREFIX = "rate_limited:";

/**
 * Thrown to next-auth when the password was right but the account's second factor is needed
 * (`MFA_REQUIRED`: ask for it) or was refused (`MFA_FAILED`): the form shows the code field.
 */
export const MFA_REQUIRED = "mfa_required";
export const MFA_FAILED = "mfa_failed";

export const TotpCode = text({ error: "must be a string" })
  .max(20, "must be the 6-digit code of your authenticator app")
  .regex(/^[\d\s-]*$/, "must be the 6-digit code of your authenticator app")
  .refine((code) => code.replace(/[\s-]/g, "").length === 6, "must be the 6-digit code of your authenticator app");
export const RecoveryCode = text({ error: "must be a string" }).min(1, "is required").max(40, "is not a recovery code");

export const StepUpInput = z
  .strictObject({
    password: text({ error: "is required" })
      .min(1, "is required")
      .max(200, "must be at most 200 characters")
      .optional()
      .meta({ description: "The account's password (required unless `recovery_code` is sent)." }),
    totp_code: TotpCode.optional().meta({
      description: "The current 6-digit code of the account's authenticator app: required with the password when the account has one.",
    }),
    recovery_code: RecoveryCode.optional().meta({
      description: "One of the account's single-use recovery codes, on its own (instead of the password and code).",
    }),
  })
  .check((ctx) => {
    const { password, totp_code, recovery_code } = ctx.value;
    if (recovery_code !== undefined && (password !== undefined || totp_code !== undefined))
      ctx.issues.push({
        code: "custom",
        path: ["recovery_code"],
        message: "is sent on its own, without password or totp_code",
        input: ctx.value,
      });
    else if (recovery_code === undefined && password === undefined)
      ctx.issues.push({ code: "custom", path: ["password"], message: "is required", input: ctx.value });
  })
  .meta({ id: "StepUpRequest" });

export const StepUpResult = z
  .object({ step_up_expires_at: z.iso.datetime().meta({ description: "Step-up actions are allowed until then (10 minutes)." }) })
  .meta({ id: "StepUp" });

/** Console only: how this session can step up, and starting a step-up through its SSO provider. */
export const StepUpMethods = z.object({
  password: z.boolean(),
  /** The account has an authenticator app: the password step-up needs its code too. */
  totp: z.boolean(),
  /** Unused recovery codes the account has left. */
  recovery_codes: z.number().int(),
  sso: z.object({ provider_id: z.uuid(), name: z.string() }).nullable(),
});
export const SsoStepUpInput = z.strictObject({ provider_id: z.string().max(100).optional() });
export const SsoStepUpStarted = z.object({ url: z.string() });

export const Me = z
  .object({
    user: z.object({
      id: z.uuid(),
      email: z.string(),
      name: z.string().nullable(),
      platform_role: z.enum(PLATFORM_ROLES).nullable(),
    }),
    memberships: z.array(z.object({ tenant_id: z.uuid(), tenant_name: z.string(), role: z.enum(TENANT_ROLES) })),
    token: z
      .object({ id: z.uuid(), tenant_id: z.uuid().nullable(), read_only: z.boolean(), expires_at: z.iso.datetime().nullable() })
      .nullable()
      .meta({ description: "The API token of this request (null in the console)." }),
    step_up_expires_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Me" });
export type Me = z.infer<typeof Me>;

export const ChangePasswordInput = z.strictObject({
  current_password: text().min(1, "is required").max(200),
  new_password: Password,
});

export const PASSWORD_RESET_TTL_MINUTES = 30;

export const PasswordResetRequestInput = z.strictObject({ email: Email }).meta({ id: "PasswordResetRequest" });

export const PasswordResetAccepted = z
  .object({ message: z.string() })
  .meta({ id: "PasswordResetAccepted", description: "The same answer whether or not the email has an account." });

export const PasswordResetConfirmInput = z
  .strictObject({
    token: z.string({ error: "is required" }).min(1, "is required").max(200, "is not a valid link token"),
    password: Password,
    revoke_tokens: JsonBoolean.optional().meta({
      description: "Also revoke every API token of the account (for when someone else may have known the password). Default false.",
    }),
  })
  .meta({ id: "PasswordResetConfirmRequest" });

export const PasswordResetDone = z
  .object({
    email: z.string(),
    sessions_ended: z.number().int().meta({ description: "Console sessions of the account that the reset ended." }),
    tokens_revoked: z.number().int().meta({ description: "API tokens revoked (0 unless `revoke_tokens` was true)." }),
  })
  .meta({ id: "PasswordResetDone" });

// Platform users (GET/POST /users, PATCH /users/{user_id}): operators and support staff.

export const PlatformRoleSchema = z.enum(PLATFORM_ROLES, { error: "must be operator or support" });

export const PlatformUser = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    platform_role: z.enum(PLATFORM_ROLES).nullable(),
    has_password: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "User" });
export type PlatformUser = z.infer<typeof PlatformUser>;

export const USER_ROLE_FILTERS = ["operator", "support", "any", "none"] as const;

export const ListUsersInput = PageQuery.extend({
  search: SearchQuery.meta({ description: "Case-insensitive substring of the email or name, or an exact user id." }),
  platform_role: z
    .enum(USER_ROLE_FILTERS, { error: "must be operator, support, any or none" })
    .optional()
    .meta({ description: "`operator`, `support`, `any` (either: platform staff) or `none` (tenant users only)." }),
});
export type ListUsersInput = z.infer<typeof ListUsersInput>;
export const UserPage = pageOf(PlatformUser).meta({ id: "UserPage" });

export const CreatePlatformUserInput = z
  .strictObject({
    email: Email,
    name: PersonName.optional(),
    password: Password.meta({ description: "The first password, set by the operator; the user changes it on their profile." }),
    platform_role: PlatformRoleSchema,
  })
  .meta({ id: "CreateUserRequest" });
export type CreatePlatformUserInput = z.infer<typeof CreatePlatformUserInput>;

export const UpdatePlatformUserInput = z
  .strictObject({
    user_id: z.string().max(100),
    platform_role: PlatformRoleSchema.nullable().meta({ description: "`operator`, `support`, or null to remove the platform role." }),
  })
  .meta({ id: "UpdateUserRequest" });
export type UpdatePlatformUserInput = z.infer<typeof UpdatePlatformUserInput>;

// The console's own sessions (profile → Sessions). Console only: no REST operation.

export const SessionSummary = z.object({
  id: z.string(),
  /** The session making this request. */
  current: z.boolean(),
  created_at: z.iso.datetime(),
  last_seen_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  method: z.enum(["password", "sso"]),
  sso_provider_name: z.string().nullable(),
});
export type SessionSummary = z.output<typeof SessionSummary>;

export const SessionList = z.object({ results: z.array(SessionSummary) });
export type SessionList = z.output<typeof SessionList>;

export const EndSessionInput = z.strictObject({ session_id: z.string({ error: "is required" }).min(1, "is required").max(200) });

// Second factors (profile → Two-factor authentication). Console only: no REST operation.

export const MFA_FACTOR_KINDS = ["totp"] as const;
export const FactorName = text({ error: "must be a string" }).trim().min(1, "is required").max(60, "must be at most 60 characters");

export const MfaFactor = z.object({
  id: z.uuid(),
  kind: z.enum(MFA_FACTOR_KINDS),
  name: z.string(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
});
export type MfaFactor = z.output<typeof MfaFactor>;

export const MfaStatus = z.object({
  factors: z.array(MfaFactor),
  recovery_codes_remaining: z.number().int(),
  /** The platform requires this account to enrol (PLATFORM_REQUIRE_MFA) and it has no factor yet. */
  enrollment_required: z.boolean(),
  /** Second factors protect password sign-in: an account without a password has nothing to add them to. */
  available: z.boolean(),
});
export type MfaStatus = z.output<typeof MfaStatus>;

export const StartTotpInput = z.strictObject({ name: FactorName.optional() });
export const TotpEnrolment = z.object({
  factor_id: z.uuid(),
  /** The secret in base32, for typing into an app by hand; shown only now. */
  secret: z.string(),
  uri: z.string(),
  /** The QR code of `uri`, as an SVG data: URL. */
  qr_code: z.string(),
});
export type TotpEnrolment = z.output<typeof TotpEnrolment>;

const FactorId = z.string({ error: "is required" }).min(1, "is required").max(100, "is not a factor id");
export const ConfirmTotpInput = z.strictObject({ factor_id: FactorId, code: TotpCode, name: FactorName.optional() });
export const TotpConfirmed = z.object({
  factor: MfaFactor,
  /** The account's first factor: its ten recovery codes, shown this once. */
  recovery_codes: z.array(z.string()).nullable(),
});
export const RenameFactorInput = z.strictObject({ factor_id: FactorId, name: FactorName });
export const RemoveFactorInput = z.strictObject({ factor_id: FactorId });
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
