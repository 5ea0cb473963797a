-- Tenant search (GET /api/v1/tenants?search=): a lower-cased copy of the name kept by the
-- database itself, in the "C" collation so LIKE compares bytes (about 5x cheaper per row than
-- lower(name) ILIKE under a linguistic collation), with a btree that serves prefix matches by
-- seek and substring matches by an index-only scan of a narrow index instead of the table.
-- pg_trgm would do better still but is not available on PGlite (the embedded default).
ALTER TABLE "tenants" ADD COLUMN "search_name" TEXT COLLATE "C" GENERATED ALWAYS AS (lower("name")) STORED;

-- CreateIndex
CREATE INDEX "tenants_search_name_idx" ON "tenants"("search_name");
