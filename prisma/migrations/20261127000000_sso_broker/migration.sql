-- The OAuth 2.0 broker for the platform's own apps (issue 11 item 4): registered applications,
-- one-time authorization codes and opaque access tokens (each stored as a SHA-256 hash only).

-- CreateTable
CREATE TABLE "sso_applications" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_hash" TEXT NOT NULL,
    "redirect_uris" TEXT[] NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_applications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_authorization_codes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "code_hash" TEXT NOT NULL,
    "application_id" UUID NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "profile" JSONB NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_authorization_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_access_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "token_hash" TEXT NOT NULL,
    "application_id" UUID NOT NULL,
    "code_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "profile" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sso_applications_client_id_key" ON "sso_applications"("client_id");

-- CreateIndex
CREATE INDEX "sso_applications_created_at_id_idx" ON "sso_applications"("created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "sso_authorization_codes_code_hash_key" ON "sso_authorization_codes"("code_hash");

-- CreateIndex
CREATE INDEX "sso_authorization_codes_application_id_idx" ON "sso_authorization_codes"("application_id");

-- CreateIndex
CREATE INDEX "sso_authorization_codes_provider_id_idx" ON "sso_authorization_codes"("provider_id");

-- CreateIndex
CREATE INDEX "sso_authorization_codes_tenant_id_idx" ON "sso_authorization_codes"("tenant_id");

-- CreateIndex
CREATE INDEX "sso_authorization_codes_expires_at_idx" ON "sso_authorization_codes"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "sso_access_tokens_token_hash_key" ON "sso_access_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "sso_access_tokens_application_id_idx" ON "sso_access_tokens"("application_id");

-- CreateIndex
CREATE INDEX "sso_access_tokens_provider_id_idx" ON "sso_access_tokens"("provider_id");

-- CreateIndex
CREATE INDEX "sso_access_tokens_tenant_id_idx" ON "sso_access_tokens"("tenant_id");

-- CreateIndex
CREATE INDEX "sso_access_tokens_code_id_idx" ON "sso_access_tokens"("code_id");

-- CreateIndex
CREATE INDEX "sso_access_tokens_expires_at_idx" ON "sso_access_tokens"("expires_at");

-- A pending broker sign-in whose application is deleted goes with it.
DELETE FROM "sso_signin_requests" r
WHERE r."broker_application_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "sso_applications" a WHERE a."id" = r."broker_application_id");

-- AddForeignKey
ALTER TABLE "sso_signin_requests" ADD CONSTRAINT "sso_signin_requests_broker_application_id_fkey" FOREIGN KEY ("broker_application_id") REFERENCES "sso_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_authorization_codes" ADD CONSTRAINT "sso_authorization_codes_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "sso_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_authorization_codes" ADD CONSTRAINT "sso_authorization_codes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_authorization_codes" ADD CONSTRAINT "sso_authorization_codes_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_access_tokens" ADD CONSTRAINT "sso_access_tokens_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "sso_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_access_tokens" ADD CONSTRAINT "sso_access_tokens_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_access_tokens" ADD CONSTRAINT "sso_access_tokens_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
