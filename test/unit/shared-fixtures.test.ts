/** The shared fixtures are found beside the checkout, or where a variable points; else one clear line. */
import { afterEach, expect, test } from "vitest";
import { idpFixturesDir, scimFixturesDir } from "../support/shared-fixtures.ts";

afterEach(() => {
  delete process.env.IDP_FIXTURES_DIR;
  delete process.env.SCIM_FIXTURES_DIR;
});

test("found beside the checkout", () => {
  expect(idpFixturesDir()).toMatch(/shared\/fixtures\/idp$/);
  expect(scimFixturesDir()).toMatch(/shared\/fixtures\/scim$/);
});

test("a variable that points nowhere fails with one line naming it", () => {
  process.env.SCIM_FIXTURES_DIR = "/nowhere/scim";
  expect(() => scimFixturesDir()).toThrow(/^scim fixtures not found: SCIM_FIXTURES_DIR=\/nowhere\/scim does not exist$/);
});
