import { describe, expect, test } from "vitest";
import { addDomains, checkForm, serverFieldErrors, splitDomains, splitTenantIds } from "../../components/sso/provider-form.ts";

describe("splitDomains", () => {
  test("commas, semicolons and any whitespace separate; entries are lower-cased", () => {
    expect(splitDomains("Acme.com, example.org;EXAMPLE.net\tfoo.io\nbar.dev")).toEqual([
      "acme.com",
      "example.org",
      "example.net",
      "foo.io",
      "bar.dev",
    ]);
  });

  test("empty entries vanish", () => {
    expect(splitDomains("")).toEqual([]);
    expect(splitDomains("  ,, ;  ")).toEqual([]);
    expect(splitDomains(",a.com,,b.com,")).toEqual(["a.com", "b.com"]);
  });

  test("repeats are kept for addDomains (or the server) to judge", () => {
    expect(splitDomains("a.com a.com")).toEqual(["a.com", "a.com"]);
  });
});

describe("addDomains", () => {
  test("appends in order, skipping domains already listed (also within the new ones)", () => {
    expect(addDomains(["a.com"], ["b.com", "a.com", "b.com", "c.com"])).toEqual(["a.com", "b.com", "c.com"]);
  });

  test("leaves the given list alone", () => {
    const list = ["a.com"];
    addDomains(list, ["b.com"]);
    expect(list).toEqual(["a.com"]);
  });
});

describe("checkForm", () => {
  const values = { provider_type: "saml" as const, name: "Okta", metadata_url: "https://idp.example/metadata", domains: [], enabled: true };

  test("a complete form has no errors", () => {
    expect(checkForm(values, "Metadata URL")).toEqual({});
  });

  test("names the missing or malformed fields with the form's labels and the server's limits", () => {
    expect(checkForm({ ...values, name: "  ", metadata_url: "" }, "Metadata URL")).toEqual({
      name: "Name must not be empty",
      metadata_url: "Metadata URL must not be empty",
    });
    expect(checkForm({ ...values, name: "x".repeat(101), metadata_url: "ftp://idp.example/x" }, "Discovery URL")).toEqual({
      name: "Name must be at most 100 characters",
      metadata_url: "Discovery URL must be an absolute https URL",
    });
  });

  test("an uploaded metadata file replaces the URL: a file must be picked, unless the provider already has one", () => {
    const upload = { ...values, metadata_source: "xml" as const, metadata_url: "" };
    expect(checkForm(upload, "Metadata URL")).toEqual({ metadata_xml: "Choose the IdP's metadata file (.xml)" });
    expect(checkForm({ ...upload, metadata_xml: "<md:EntityDescriptor/>" }, "Metadata URL")).toEqual({});
    expect(checkForm(upload, "Metadata URL", true)).toEqual({});
  });
});

describe("Entra ID directories", () => {
  test("typed ids split on commas, semicolons and spaces, lower-cased, each once", () => {
    expect(
      splitTenantIds(" 9188040D-6C67-4C5B-B112-36A304B66DAD, 72f988bf-86f1-41af-91ab-2d7cd011db47;9188040d-6c67-4c5b-b112-36a304b66dad "),
    ).toEqual(["9188040d-6c67-4c5b-b112-36a304b66dad", "72f988bf-86f1-41af-91ab-2d7cd011db47"]);
    expect(splitTenantIds("  ")).toEqual([]);
  });

  test("the server's entra_tenant_ids.N error lands on the field", () => {
    const error = { data: { errors: [{ path: "entra_tenant_ids.1", message: "must be an Entra tenant id (a GUID)" }] } };
    expect(serverFieldErrors(error, [], "URL")?.fields.entra_tenant_ids).toBe("Entra ID directories: must be an Entra tenant id (a GUID)");
  });
});
