/**
 * Where the real IdP metadata documents are (../shared/fixtures/idp beside the checkout; they are
 * read in place, never copied into the project): IDP_FIXTURES_DIR, else the first
 * shared/fixtures/idp found walking up from the repository.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function idpFixturesDir(): string {
  if (process.env.IDP_FIXTURES_DIR) return process.env.IDP_FIXTURES_DIR;
  let dir = path.resolve(fileURLToPath(new URL("../../", import.meta.url)));
  for (;;) {
    const candidate = path.join(dir, "shared", "fixtures", "idp");
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("IdP fixtures not found: set IDP_FIXTURES_DIR to the shared/fixtures/idp folder");
    dir = parent;
  }
}
