import { describe, expect, test } from "vitest";
import { PathTrie, nextSegments, paramsOf, templateSegments } from "../../server/contract/path-trie.ts";

const trie = (patterns: string[]) => {
  const t = new PathTrie<string>();
  for (const pattern of patterns) t.add(nextSegments(pattern), pattern);
  return (path: string) => t.match(path.split("/"), 1);
};

describe("path patterns with Next's precedence", () => {
  test("a literal beats a parameter, which beats a catch-all, whatever the order of the patterns", () => {
    const match = trie(["/api/[...path]", "/api/v1/[...path]", "/a/[id]", "/a/me", "/api/v1/openapi.json"]);
    expect(match("/a/me")).toBe("/a/me");
    expect(match("/a/x1")).toBe("/a/[id]");
    expect(match("/api/v1/openapi.json")).toBe("/api/v1/openapi.json");
    expect(match("/api/v1/tenants")).toBe("/api/v1/[...path]");
    expect(match("/api/v2/tenants")).toBe("/api/[...path]");
  });

  test("where the rest of the path does not match, the next choice is tried", () => {
    const match = trie(["/t/me/keys", "/t/[id]/audit", "/t/[...rest]"]);
    expect(match("/t/me/audit")).toBe("/t/[id]/audit");
    expect(match("/t/me/keys")).toBe("/t/me/keys");
    expect(match("/t/me/other")).toBe("/t/[...rest]");
  });

  test("a parameter is never empty; a catch-all takes one or more segments, empty ones included", () => {
    const match = trie(["/a/[id]", "/a/[id]/b", "/v/[...rest]"]);
    expect(match("/a/")).toBeUndefined();
    expect(match("/a//b")).toBeUndefined();
    expect(match("/a/x/")).toBeUndefined();
    expect(match("/v")).toBeUndefined();
    expect(match("/v/")).toBe("/v/[...rest]");
    expect(match("/v//x/")).toBe("/v/[...rest]");
  });

  test("OpenAPI templates, and the parameters a pattern takes from a path", () => {
    expect(templateSegments("/tenants/{tenant_id}/audit")).toEqual([{ literal: "tenants" }, { param: "tenant_id" }, { literal: "audit" }]);
    expect(paramsOf(nextSegments("/api/sso/saml/[providerId]/acs"), "/api/sso/saml/p%201/acs".split("/"), 1)).toEqual({
      providerId: "p%201",
    });
    expect(paramsOf(nextSegments("/api/auth/[...nextauth]"), "/api/auth/callback/oidc".split("/"), 1)).toEqual({
      nextauth: ["callback", "oidc"],
    });
  });
});
