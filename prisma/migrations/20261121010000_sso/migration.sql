-- CreateTable
CREATE TABLE "sso_providers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "provider_type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metadata_url" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "metadata_status" TEXT NOT NULL DEFAULT 'pending',
    "metadata_checked_at" TIMESTAMPTZ(3),
    "metadata_error" TEXT,
    "metadata_details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_domains" (
    "tenant_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "provider_id" UUID NOT NULL,

    CONSTRAINT "sso_domains_pkey" PRIMARY KEY ("tenant_id","domain")
);

-- CreateIndex
CREATE INDEX "sso_providers_tenant_id_created_at_id_idx" ON "sso_providers"("tenant_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sso_domains_provider_id_idx" ON "sso_domains"("provider_id");

-- AddForeignKey
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
