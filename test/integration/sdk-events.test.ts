/**
 * The SDK's event groups against the real test server: the catalog (`eventTypes`), a page of a
 * tenant's events, and `events.follow`, which reads on from a cursor and then long-polls, so an
 * event appended while it waits arrives without a new call; a long poll's `wait` is added to the
 * client's timeout, so a poll that waits longer than the timeout is not cut.
 */
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { tenantWithMembers } from "../support/fixtures.ts";
import { ControlPlane, ControlPlaneError, ControlPlaneTimeoutError } from "../../sdk/src/index.ts";

const api = apiServer();
const sdk = (token: string) => new ControlPlane({ baseUrl: api.url, token, retry: false });

describe("events", () => {
  test("the catalog lists every kind with its schema; an unknown kind is a 404 ControlPlaneError", async () => {
    const { viewer } = await tenantWithMembers();
    const cp = sdk(viewer.token);
    const { results } = await cp.eventTypes.list();
    expect(results.map((t) => t.name)).toContain("tenant.created");
    expect(await cp.eventTypes.get("webhook.created")).toMatchObject({ name: "webhook.created", schema: expect.any(Object) });
    const error = await cp.eventTypes.get("no.such_kind").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlPlaneError);
    expect(error).toMatchObject({ status: 404 });
  });

  test("follow reads the events kept, then waits for the next one; its cursor resumes at the page it was reading", async () => {
    const { admin, viewer, tenant } = await tenantWithMembers();
    const writer = sdk(admin.token);
    const reader = sdk(viewer.token);
    const first = await writer.audit.append(tenant.id, { event_type: "invoice.paid", actor: { id: "billing" } });

    const feed = reader.events.follow(tenant.id, { event_types: "invoice.*", wait: 10 });
    const seen: string[] = [];
    let appended = false;
    for await (const event of feed) {
      seen.push(event.id);
      if (!appended) {
        // Caught up: the next read long-polls, and this append ends its wait.
        appended = true;
        setTimeout(() => void writer.audit.append(tenant.id, { event_type: "invoice.refunded", actor: { id: "billing" } }), 200);
        continue;
      }
      expect(event.type).toBe("invoice.refunded");
      break;
    }
    expect(seen[0]).toBe(first.id);
    expect(seen).toHaveLength(2);

    const page = await reader.events.page(tenant.id, { after: feed.cursor(), event_types: "invoice.*" });
    expect(page.results.map((e) => e.id)).toEqual([seen[1]]);
  });

  test("a long poll waits its `wait` beyond the client's timeout; a call's own timeout still cuts it", async () => {
    const { viewer, tenant } = await tenantWithMembers();
    const cp = new ControlPlane({ baseUrl: api.url, token: viewer.token, retry: false, timeout: 1_000 });
    const { next_cursor } = await cp.events.page(tenant.id, { event_types: "nothing.*" });
    const started = Date.now();
    const page = await cp.events.page(tenant.id, { after: next_cursor, event_types: "nothing.*", wait: 2 });
    expect(page.results).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900); // held the whole 2 s, past the 1 s timeout
    const cut = await cp.events
      .page(tenant.id, { after: next_cursor, event_types: "nothing.*", wait: 2 }, { timeout: 300 })
      .catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(ControlPlaneTimeoutError);
  });
});
