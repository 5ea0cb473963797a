/**
 * Where the shared fixtures are: real IdP metadata (`idp/`) and Microsoft's SCIM test collection
 * (`scim/`), kept in `shared/fixtures/` beside the checkout and read in place, never copied into
 * the project. A variable points elsewhere; without one, the first `shared/fixtures/<kind>` found
 * walking up from the repository. Not found, it fails with one line saying where it looked.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPOSITORY = path.resolve(fileURLToPath(new URL("../../", import.meta.url)));

function sharedFixturesDir(kind: "idp" | "scim", variable: string): string {
  const configured = process.env[variable];
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new Error(`${kind} fixtures not found: ${variable}=${configured} does not exist`);
  }
  for (let dir = REPOSITORY; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "shared", "fixtures", kind);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  const expected = path.join(path.dirname(REPOSITORY), "shared", "fixtures", kind);
  throw new Error(`${kind} fixtures not found: expected ${expected} (shared/ beside the checkout); set ${variable} to their folder`);
}

export const idpFixturesDir = () => sharedFixturesDir("idp", "IDP_FIXTURES_DIR");
export const scimFixturesDir = () => sharedFixturesDir("scim", "SCIM_FIXTURES_DIR");
