/**
 * The SDK's types are generated from the OpenAPI document: sdk/src/schema.d.ts must be exactly what
 * scripts/sdk-types.ts makes of the document now, so a change to the API that is not regenerated
 * fails the build (run `npx tsx --import ./scripts/server-only.mjs scripts/sdk-types.ts`).
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { generateSdkSchema, SCHEMA_FILE } from "../../scripts/sdk-types.ts";

test("sdk/src/schema.d.ts is what the current OpenAPI document generates", async () => {
  const generated = await generateSdkSchema();
  expect(generated).toContain('"/tenants/{tenant_id}/webhooks": {');
  expect(readFileSync(SCHEMA_FILE, "utf8"), "sdk/src/schema.d.ts is stale: run scripts/sdk-types.ts").toBe(generated);
});
