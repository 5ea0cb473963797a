import { expect, test } from "vitest";
import { consoleUrl } from "../../components/console/urls.ts";

test("console paths", () => {
  expect(consoleUrl.tenants()).toBe("/tenants");
  expect(consoleUrl.tenant("t1")).toBe("/tenants/t1");
  expect(consoleUrl.tenantSection("t1", "")).toBe("/tenants/t1");
  expect(consoleUrl.tenantSection("t1", "members")).toBe("/tenants/t1/members");
  expect(consoleUrl.members("t1")).toBe("/tenants/t1/members");
  expect(consoleUrl.sso("t1")).toBe("/tenants/t1/sso");
  expect(consoleUrl.webhooks("t1")).toBe("/tenants/t1/webhooks");
  expect(consoleUrl.webhook("t1", "w1")).toBe("/tenants/t1/webhooks/w1");
  expect(consoleUrl.logStreams("t1")).toBe("/tenants/t1/log-streams");
  expect(consoleUrl.logStream("t1", "s1")).toBe("/tenants/t1/log-streams/s1");
  expect(consoleUrl.delivery("t1", "w1", "d 1")).toBe("/tenants/t1/webhooks/w1?delivery=d%201#deliveries");
});

test("a query is added only when there is one", () => {
  expect(consoleUrl.audit("t1")).toBe("/tenants/t1/audit");
  expect(consoleUrl.audit("t1", "")).toBe("/tenants/t1/audit");
  expect(consoleUrl.audit("t1", new URLSearchParams({ type: "user.*" }))).toBe("/tenants/t1/audit?type=user.*");
  expect(consoleUrl.withQuery("/tenants/t1/audit", "range=24h")).toBe("/tenants/t1/audit?range=24h");
});

test("account pages keep the selected tenant; the tenants list keeps its search", () => {
  expect(consoleUrl.tokens()).toBe("/tokens");
  expect(consoleUrl.tokens("t1")).toBe("/tokens?tenant=t1");
  expect(consoleUrl.profile("t1")).toBe("/profile?tenant=t1");
  expect(consoleUrl.users(null)).toBe("/users");
  expect(consoleUrl.tenants("acme & co")).toBe("/tenants?search=acme+%26+co");
});
