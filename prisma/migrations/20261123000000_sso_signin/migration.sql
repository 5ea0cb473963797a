-- SSO sign-in (issue 11): providers gain their protocol and relying-party settings, domains of
-- enabled providers become unique across the platform, and pending sign-in requests live here so
-- any instance can take the IdP's callback.

-- AlterTable
ALTER TABLE "sso_providers" ADD COLUMN "protocol" TEXT NOT NULL DEFAULT 'saml',
ADD COLUMN "client_id" TEXT,
ADD COLUMN "client_secret_ciphertext" TEXT,
ADD COLUMN "default_role" TEXT NOT NULL DEFAULT 'viewer',
ADD COLUMN "allow_idp_initiated" BOOLEAN NOT NULL DEFAULT false;

-- Existing rows: the protocol their type or URL implies (the next metadata check confirms it).
UPDATE "sso_providers" SET "protocol" = 'oidc'
WHERE "provider_type" = 'oidc'
   OR ("provider_type" IN ('azure_ad', 'google_workspace') AND "metadata_url" LIKE '%/.well-known/openid-configuration%');

-- AlterTable
ALTER TABLE "sso_domains" ADD COLUMN "enabled" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN "sso_tenant_id" UUID;

-- sso_domains.enabled mirrors its provider's enabled, kept by the database itself so no code path
-- can forget it; the partial unique index then makes "one enabled provider per domain, platform
-- wide" a constraint that holds under any concurrency.
CREATE FUNCTION sso_domains_copy_enabled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.enabled := (SELECT p.enabled FROM sso_providers p WHERE p.id = NEW.provider_id);
  RETURN NEW;
END $$;

CREATE TRIGGER sso_domains_copy_enabled BEFORE INSERT OR UPDATE ON "sso_domains"
FOR EACH ROW EXECUTE FUNCTION sso_domains_copy_enabled();

CREATE FUNCTION sso_providers_propagate_enabled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sso_domains SET enabled = NEW.enabled WHERE provider_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER sso_providers_propagate_enabled AFTER UPDATE OF "enabled" ON "sso_providers"
FOR EACH ROW WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled) EXECUTE FUNCTION sso_providers_propagate_enabled();

UPDATE "sso_domains" SET "enabled" = "enabled";

-- Partial (schema.prisma cannot say WHERE; the drift test compares the columns).
CREATE UNIQUE INDEX "sso_domains_enabled_domain_key" ON "sso_domains"("domain") WHERE "enabled";

-- CreateTable
CREATE TABLE "sso_signin_requests" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "state" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "protocol" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "binding_hash" TEXT NOT NULL,
    "return_to" TEXT,
    "initiated_by" UUID,
    "login_hint" TEXT,
    "broker_application_id" UUID,
    "broker_redirect_uri" TEXT,
    "broker_client_state" TEXT,
    "broker_code_challenge" TEXT,
    "consumed_at" TIMESTAMPTZ(3),
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_signin_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sso_signin_requests_state_key" ON "sso_signin_requests"("state");

-- CreateIndex
CREATE INDEX "sso_signin_requests_provider_id_idx" ON "sso_signin_requests"("provider_id");

-- CreateIndex
CREATE INDEX "sso_signin_requests_expires_at_idx" ON "sso_signin_requests"("expires_at");

-- AddForeignKey
ALTER TABLE "sso_signin_requests" ADD CONSTRAINT "sso_signin_requests_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_signin_requests" ADD CONSTRAINT "sso_signin_requests_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
