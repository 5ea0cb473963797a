/**
 * Operational notices (server/webhooks/notices.ts): a delivery exhausted, a webhook failing for
 * 24 h, a webhook turned off by the service. Each an event in the audit log and the Events API,
 * delivered to the tenant's other webhooks that subscribe and never to the webhook it is about,
 * and a mail to the tenant's admins at most once per webhook per 24 h. Real Postgres, real
 * receivers, the loopback SMTP server; retries shortened to one (1 s).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { mailServers } from "../support/mail-servers.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";
import { emitEvent } from "../support/events.ts";
import { database, type Database } from "../../server/db/client.ts";
import { startWebhookDispatcher } from "../../server/webhooks/sink.ts";
import { announceFailingWebhooks } from "../../server/webhooks/notices.ts";
import { mailNotices } from "../../server/webhooks/notice-mail.ts";

process.env.WEBHOOK_RETRY_SCHEDULE = "1";

const servers = mailServers();
let database_: Database;
let stopDispatcher: () => Promise<void>;
const receivers: Receiver[] = [];
beforeAll(async () => {
  database_ = await database();
  stopDispatcher = await startWebhookDispatcher(database_);
});
afterAll(async () => {
  await stopDispatcher();
});
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

type World = Awaited<ReturnType<typeof tenantWithMembers>>;

async function hook(world: World, events: string[], status = 200) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  receiver.respond = () => ({ status });
  const res = await client(servers.api.url, world.admin.token).post(`/api/v1/tenants/${world.tenant.id}/webhooks`, {
    url: `${receiver.url}/hook`,
    events,
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.id as string, receiver };
}

async function emit(tenantId: string, type = "user.created") {
  return database_.sql.transaction((tx) =>
    emitEvent(
      tx,
      { id: null, email: null, ip: null, userAgent: null },
      { type, tenantId, target: { type: "user", id: "u-1" }, details: {} },
    ),
  );
}

const eventsOf = async (tenantId: string, eventType: string) =>
  (await db()).auditEvent.findMany({ where: { tenantId, eventType }, orderBy: { sequence: "asc" } });
const typesIn = (r: Receiver) => r.received.map((x) => (JSON.parse(x.body) as { type: string }).type);
const mailsTo = (email: string) => servers.smtp.mails.filter((m) => m.to.includes(email));
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe("webhook.delivery_exhausted", () => {
  test("recorded, pulled, delivered to another subscribed webhook, never to the failing one; one mail to admins", async () => {
    const world = await tenantWithMembers();
    // Subscribed to its own notice's kind by name: still never sent a notice about itself.
    const failing = await hook(world, ["user.*", "webhook.delivery_exhausted"], 503);
    const watcher = await hook(world, ["webhook.delivery_exhausted"]);
    const other = await tenantWithMembers();
    const elsewhere = await hook(other, ["*"]);

    const event = await emit(world.tenant.id);
    const [delivered] = await watcher.receiver.waitFor(1);
    const payload = JSON.parse(delivered!.body);
    expect(payload).toMatchObject({
      type: "webhook.delivery_exhausted",
      tenant_id: world.tenant.id,
      data: {
        actor: { id: null, email: null },
        target: { type: "webhook", id: failing.id },
        details: { event_id: event.id, event_type: "user.created", attempts: 2, last_response_status: 503, last_error: "HTTP 503" },
        source: { type: "platform" },
      },
    });
    const [recorded] = await eventsOf(world.tenant.id, "webhook.delivery_exhausted");
    expect(recorded).toMatchObject({ id: payload.id, targetType: "webhook", targetId: failing.id });

    // The Events API serves it too.
    const pulled = await client(servers.api.url, world.viewer.token).get(
      `/api/v1/tenants/${world.tenant.id}/events?event_types=webhook.delivery_exhausted`,
    );
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.json.results.map((e: { id: string }) => e.id)).toEqual([payload.id]);

    // One mail, to the admin only, naming the webhook and what to do.
    const mail = await servers.smtp.waitFor(world.admin.user.email);
    expect(mail.subject).toContain(failing.receiver.url);
    expect(mail.text).toContain("failed its last retry");
    expect(mail.text).toContain("Recover failed deliveries");
    expect(mail.text).toContain(`/tenants/${world.tenant.id}/webhooks/${failing.id}`);

    await settle();
    expect(typesIn(failing.receiver)).toEqual(["user.created", "user.created"]);
    expect(mailsTo(world.viewer.user.email)).toHaveLength(0);
    expect(typesIn(elsewhere.receiver)).not.toContain("webhook.delivery_exhausted");
    expect(await eventsOf(other.tenant.id, "webhook.delivery_exhausted")).toHaveLength(0);
  });

  test("two failing webhooks subscribed to notices: each hears of the other once, no storm", async () => {
    const world = await tenantWithMembers();
    const a = await hook(world, ["user.*", "webhook.delivery_exhausted"], 500);
    const b = await hook(world, ["user.*", "webhook.delivery_exhausted"], 500);
    await emit(world.tenant.id);
    await until(
      () => eventsOf(world.tenant.id, "webhook.delivery_exhausted"),
      (events) => events.length >= 2,
    );
    // Each gets the other's notice (twice: first attempt and the retry), which then exhausts quietly.
    await until(
      () => [a, b].map((h) => typesIn(h.receiver).filter((t) => t === "webhook.delivery_exhausted").length),
      (counts) => counts.every((n) => n === 2),
    );
    await settle();
    const notices = await eventsOf(world.tenant.id, "webhook.delivery_exhausted");
    expect(notices.map((e) => e.targetId).sort()).toEqual([a.id, b.id].sort());
    expect(notices.map((e) => (e.details as { event_type: string }).event_type)).toEqual(["user.created", "user.created"]);
  });
});

describe("one mail per webhook per 24 h", () => {
  test("two exhausted deliveries and then a turn-off: one mail; a day later, another", async () => {
    const world = await tenantWithMembers();
    const failing = await hook(world, ["user.created"], 500);
    await emit(world.tenant.id);
    await emit(world.tenant.id);
    await until(
      () => eventsOf(world.tenant.id, "webhook.delivery_exhausted"),
      (events) => events.length === 2,
    );
    await servers.smtp.waitFor(world.admin.user.email);

    // Turned off (410 Gone): its notice, no second mail within the day.
    failing.receiver.respond = () => ({ status: 410 });
    await (await db()).webhook.update({ where: { id: failing.id }, data: { notifiedAt: new Date(Date.now() - 23 * 3_600_000) } });
    await emit(world.tenant.id);
    await until(
      () => eventsOf(world.tenant.id, "webhook.auto_disabled"),
      (events) => events.length === 1,
    );
    await settle();
    expect(mailsTo(world.admin.user.email)).toHaveLength(1);

    // More than a day after the last mail, the next notice mails again.
    await (
      await db()
    ).webhook.update({
      where: { id: failing.id },
      data: { enabled: true, notifiedAt: new Date(Date.now() - 25 * 3_600_000) },
    });
    failing.receiver.respond = () => ({ status: 500 });
    await emit(world.tenant.id);
    const second = await servers.smtp.waitFor(world.admin.user.email, { skip: 1 });
    expect(second.text).toContain("failed its last retry");
  });

  test("eight notices at once (as a fleet of instances would send them): one mail", async () => {
    const world = await tenantWithMembers();
    const { id } = await hook(world, ["user.created"]);
    const notice = { webhookId: id, headline: "Racing." };
    await Promise.all(Array.from({ length: 8 }, () => mailNotices(database_, [notice])));
    await servers.smtp.waitFor(world.admin.user.email);
    await settle();
    expect(mailsTo(world.admin.user.email)).toHaveLength(1);
  });
});

describe("webhook.auto_disabled", () => {
  test("failing for 5 days: turned off with webhook.disabled and webhook.auto_disabled, heard by the other webhook", async () => {
    const world = await tenantWithMembers();
    const failing = await hook(world, ["user.*", "webhook.auto_disabled"], 500);
    const watcher = await hook(world, ["webhook.*"]);
    const since = new Date(Date.now() - 5 * 86_400_000 - 60_000);
    await (await db()).webhook.update({ where: { id: failing.id }, data: { failingSince: since } });
    await emit(world.tenant.id);
    const [delivered] = await watcher.receiver.waitFor(1, { filter: (r) => r.body.includes('"webhook.auto_disabled"') });
    expect(JSON.parse(delivered!.body).data).toMatchObject({
      target: { type: "webhook", id: failing.id },
      details: { reason: expect.stringMatching(/5 days/), failing_since: since.toISOString() },
    });
    expect(await eventsOf(world.tenant.id, "webhook.disabled")).toHaveLength(1);
    expect(await eventsOf(world.tenant.id, "webhook.auto_disabled")).toHaveLength(1);
    const mail = await servers.smtp.waitFor(world.admin.user.email);
    expect(mail.text).toContain("was turned off");
    expect(typesIn(failing.receiver)).toEqual(["user.created"]);
  });
});

describe("webhook.failing", () => {
  test("failing for 24 h: announced once per streak however often the job runs", async () => {
    const world = await tenantWithMembers();
    const failing = await hook(world, ["user.created"], 500);
    const watcher = await hook(world, ["webhook.failing"]);
    const young = await hook(world, ["user.created"], 500);
    const since = new Date(Date.now() - 25 * 3_600_000);
    const prisma = await db();
    await prisma.webhook.update({ where: { id: failing.id }, data: { failingSince: since } });
    await prisma.webhook.update({ where: { id: young.id }, data: { failingSince: new Date(Date.now() - 23 * 3_600_000) } });

    const shown = await client(servers.api.url, world.viewer.token).get(`/api/v1/tenants/${world.tenant.id}/webhooks/${failing.id}`);
    expect(shown.json.failing_since).toBe(since.toISOString());

    await announceFailingWebhooks(database_);
    await announceFailingWebhooks(database_);
    const events = await eventsOf(world.tenant.id, "webhook.failing");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ targetId: failing.id, details: { failing_since: since.toISOString(), exhausted_deliveries: 0 } });
    const [delivered] = await watcher.receiver.waitFor(1);
    expect(JSON.parse(delivered!.body)).toMatchObject({ type: "webhook.failing", data: { target: { id: failing.id } } });
    const mail = await servers.smtp.waitFor(world.admin.user.email);
    expect(mail.text).toContain(`has failed since ${since.toISOString()}`);

    // A new streak (a success ended the old one) is announced again once it is 24 h old.
    const later = new Date(Date.now() - 24 * 3_600_000 - 60_000);
    await prisma.webhook.update({ where: { id: failing.id }, data: { failingSince: later } });
    await announceFailingWebhooks(database_);
    await announceFailingWebhooks(database_);
    expect(await eventsOf(world.tenant.id, "webhook.failing")).toHaveLength(2);
    await settle();
    expect(failing.receiver.received).toHaveLength(0);
    expect(mailsTo(world.admin.user.email)).toHaveLength(1);
  });
});
