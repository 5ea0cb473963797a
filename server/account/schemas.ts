import { z } from "zod";
import { text } from "../http/fields.ts";
import { Email, Password } from "../members/schemas.ts";
import { PLATFORM_ROLES, TENANT_ROLES } from "../auth/principal.ts";

/**
 * Thrown to next-auth (as this prefix plus the seconds to wait) so the sign-in form can tell
 * "wait" from "wrong password".
 */
export const RATE_LIMITED_PREFIX = "rate_limited:";

export const StepUpInput = z
  .strictObject({ password: text({ error: "is required" }).min(1, "is required").max(200, "must be at most 200 characters") })
  .meta({ id: "StepUpRequest" });

export const StepUpResult = z
  .object({ step_up_expires_at: z.iso.datetime().meta({ description: "Step-up actions are allowed until then (10 minutes)." }) })
  .meta({ id: "StepUp" });

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
  })
  .meta({ id: "PasswordResetConfirmRequest" });

export const PasswordResetDone = z.object({ email: z.string() }).meta({ id: "PasswordResetDone" });
