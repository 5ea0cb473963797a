-- CreateTable
CREATE TABLE "sso_saml_assertions" (
    "provider_id" UUID NOT NULL,
    "assertion_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_saml_assertions_pkey" PRIMARY KEY ("provider_id","assertion_id")
);

-- CreateIndex
CREATE INDEX "sso_saml_assertions_expires_at_idx" ON "sso_saml_assertions"("expires_at");
