-- Signed audit digests: per tenant, a JWS (EdDSA) over the chain head at a point in time, each
-- naming the SHA-256 of the digest before it. Digests cover contiguous ranges of the chain: the
-- unique (tenant_id, from_sequence) makes two instances signing at once for the same tenant
-- (housekeeping, or an on-demand request) agree on one digest instead of forking the digest chain.

-- CreateTable
CREATE TABLE "audit_digests" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "from_sequence" BIGINT NOT NULL,
    "to_sequence" BIGINT NOT NULL,
    "head_hash" TEXT NOT NULL,
    "previous_digest_hash" TEXT,
    "signed_at" TIMESTAMPTZ(3) NOT NULL,
    "kid" TEXT NOT NULL,
    "jws" TEXT NOT NULL,

    CONSTRAINT "audit_digests_pkey" PRIMARY KEY ("id")
);

-- Every public key that has signed a digest, so that rotating AUDIT_SIGNING_KEY keeps old
-- digests verifiable through the JWKS without the operator listing old keys anywhere.
-- CreateTable
CREATE TABLE "audit_signing_keys" (
    "kid" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_digests_tenant_id_from_sequence_key" ON "audit_digests"("tenant_id", "from_sequence");

-- CreateIndex
CREATE INDEX "audit_digests_tenant_id_signed_at_id_idx" ON "audit_digests"("tenant_id", "signed_at", "id");

-- AddForeignKey
ALTER TABLE "audit_digests" ADD CONSTRAINT "audit_digests_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Digests are evidence: like the events, they are never changed or removed.
CREATE FUNCTION audit_digests_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'audit_digests is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$fn$;

CREATE TRIGGER "audit_digests_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_digests"
  FOR EACH ROW EXECUTE FUNCTION audit_digests_append_only();

CREATE TRIGGER "audit_digests_no_truncate" BEFORE TRUNCATE ON "audit_digests"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_digests_append_only();
