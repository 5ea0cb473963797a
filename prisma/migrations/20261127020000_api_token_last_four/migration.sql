-- The last four characters of an API token's value, captured when it is minted, so lists can show
-- which token is which (`cp_…a1b2`). Tokens minted before this migration have none: their value
-- was never stored.
ALTER TABLE "api_tokens" ADD COLUMN "last_four" TEXT;
