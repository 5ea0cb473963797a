-- A tenant's own name for a member (PATCH /tenants/{tenant_id}/members/{user_id} with `name`).
-- The account's name belongs to the person, and every tenant they are in shows it: one tenant's
-- admins renaming a member must not rename them in the others, nor on their own profile. Null:
-- the tenant shows the account's name.
ALTER TABLE "memberships" ADD COLUMN "display_name" TEXT;
