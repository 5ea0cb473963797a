-- The Entra ID directories (tenant ids) an azure_ad provider accepts sign-ins from. Through the
-- multi-tenant issuer (common, organizations) any directory can answer; a non-empty list limits
-- it to these (server/sso/signin/entra.ts). Empty, as for every existing provider: no limit.
ALTER TABLE "sso_providers" ADD COLUMN "entra_tenant_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
