-- Second factors of console accounts (issue 41): authenticator apps (TOTP) and single-use
-- recovery codes. A factor is pending (confirmed_at null) until its first code is entered; the
-- `kind` column leaves room for passkeys. The TOTP secret is encrypted with ENCRYPTION_KEY;
-- recovery codes are kept as SHA-256 hex only.
CREATE TABLE "user_mfa_factors" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret_encrypted" TEXT,
    "confirmed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "last_used_counter" BIGINT,
    CONSTRAINT "user_mfa_factors_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "user_recovery_codes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_recovery_codes_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "user_mfa_factors_user_id_idx" ON "user_mfa_factors"("user_id");
CREATE UNIQUE INDEX "user_recovery_codes_code_hash_key" ON "user_recovery_codes"("code_hash");
CREATE INDEX "user_recovery_codes_user_id_idx" ON "user_recovery_codes"("user_id");

ALTER TABLE "user_mfa_factors" ADD CONSTRAINT "user_mfa_factors_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_recovery_codes" ADD CONSTRAINT "user_recovery_codes_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
