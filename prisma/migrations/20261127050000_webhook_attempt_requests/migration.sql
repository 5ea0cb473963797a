-- Each webhook attempt keeps the request it sent (signatures redacted to their first characters;
-- the secret is never stored here) and the response's headers, for the console's attempts log.
ALTER TABLE "webhook_attempts" ADD COLUMN "request_url" TEXT,
ADD COLUMN "request_headers" JSONB,
ADD COLUMN "response_headers" JSONB;
