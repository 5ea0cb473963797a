/** The Directory Sync tab's pure parts: every IdP has setup steps, and the pages' queries are valid API input. */
import { expect, test } from "vitest";
import { DIRECTORY_PROVIDERS, ListDirectoryGroupsInput, ListDirectoryUsersInput } from "../../server/directories/schemas.ts";
import { PROVIDER_STEPS, providerLabel } from "../../components/directories/provider-steps.ts";
import {
  directoryGroupsInput,
  directoryTabParam,
  directoryUsersInput,
  scimRequestsInput,
  userFiltersOf,
} from "../../components/directories/queries.ts";
import { consoleUrl } from "../../components/console/urls.ts";

test("every provider has steps that say where the URL and the token go, and the features to turn on", () => {
  for (const provider of DIRECTORY_PROVIDERS) {
    const guide = PROVIDER_STEPS[provider];
    expect(guide.steps.length, provider).toBeGreaterThanOrEqual(3);
    expect(guide.features.length, provider).toBeGreaterThan(0);
    expect(providerLabel(provider), provider).toMatch(/\S/);
    // Where the two values are pasted is named in the steps in the IdP's own words.
    if (provider !== "generic") {
      const text = guide.steps.join(" ");
      expect(text, provider).toContain(guide.labels.url);
      expect(text, provider).toContain(guide.labels.token);
    }
  }
});

test("the directory page's section comes from ?tab=, the overview otherwise", () => {
  expect(directoryTabParam("users")).toBe("users");
  expect(directoryTabParam("activity")).toBe("activity");
  expect(directoryTabParam(undefined)).toBe("overview");
  expect(directoryTabParam(["users"])).toBe("overview");
  expect(directoryTabParam("nope")).toBe("overview");
});

test("the users list's filters round-trip through the URL and are valid API input", () => {
  const filters = userFiltersOf(new URLSearchParams("tab=users&search=ada&state=inactive&linked=false&group=g1"));
  expect(filters).toEqual({ search: "ada", state: "inactive", linked: "false", group: "g1" });
  expect(userFiltersOf(new URLSearchParams("state=bogus&linked=maybe"))).toEqual({ search: "", state: "", linked: "", group: "" });
  const input = directoryUsersInput("t1", "d1", filters, "c1");
  expect(ListDirectoryUsersInput.parse(input)).toMatchObject({
    search: "ada",
    state: "inactive",
    linked: "false",
    group_id: "g1",
    cursor: "c1",
  });
  expect(directoryUsersInput("t1", "d1", { search: "", state: "", linked: "", group: "" })).toEqual({
    tenant_id: "t1",
    directory_id: "d1",
    page_size: 25,
  });
  expect(ListDirectoryGroupsInput.parse(directoryGroupsInput("t1", "d1", "eng"))).toMatchObject({ search: "eng" });
  expect(scimRequestsInput("t1", "d1", true)).toMatchObject({ failed: "true" });
  expect(scimRequestsInput("t1", "d1", false)).not.toHaveProperty("failed");
});

test("directory paths", () => {
  expect(consoleUrl.directories("t1")).toBe("/tenants/t1/directories");
  expect(consoleUrl.directory("t1", "d1")).toBe("/tenants/t1/directories/d1");
  expect(consoleUrl.directory("t1", "d1", new URLSearchParams({ tab: "users", group: "g 1" }))).toBe(
    "/tenants/t1/directories/d1?tab=users&group=g+1",
  );
  expect(consoleUrl.directoryUser("t1", "d1", "u1")).toBe("/tenants/t1/directories/d1/users/u1");
});
