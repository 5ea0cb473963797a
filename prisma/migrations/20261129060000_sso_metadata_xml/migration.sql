-- A SAML provider's metadata may be an uploaded document instead of a URL (IdPs behind a firewall,
-- Google Workspace, which hands out a file). Exactly one of the two is set; the document is capped
-- at 1 MiB as a fetched one is (server/sso/metadata.ts).
ALTER TABLE "sso_providers" ALTER COLUMN "metadata_url" DROP NOT NULL;
ALTER TABLE "sso_providers" ADD COLUMN "metadata_xml" TEXT;
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_metadata_source"
  CHECK (("metadata_url" IS NULL) <> ("metadata_xml" IS NULL));
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_metadata_xml_size"
  CHECK ("metadata_xml" IS NULL OR octet_length("metadata_xml") <= 1048576);
