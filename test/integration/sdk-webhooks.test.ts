/**
 * `verifyWebhook` against real deliveries of the server to a local receiver (both signature
 * headers, a rotation's two signatures, tampering, an old timestamp), and against signatures made
 * by the `standardwebhooks` package (and the package verifying our deliveries too).
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { Webhook } from "standardwebhooks";
import { apiServer } from "../support/api-server.ts";
import { tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver, type Received } from "../support/webhook-receiver.ts";
import { database } from "../../server/db/client.ts";
import { startWebhookDispatcher } from "../../server/webhooks/sink.ts";
import { ControlPlane, verifyWebhook, WebhookVerificationError } from "../../sdk/src/index.ts";

const api = apiServer();
let receiver: Receiver;
let stopDispatcher: () => Promise<void>;
beforeAll(async () => {
  stopDispatcher = await startWebhookDispatcher(await database());
});
afterAll(async () => {
  await stopDispatcher();
});
afterEach(async () => {
  await receiver?.close();
});

/** A webhook to a fresh receiver, and one real delivery of its test event. */
async function delivered(secret?: string) {
  receiver = await startReceiver();
  const world = await tenantWithMembers();
  const cp = new ControlPlane({ baseUrl: api.url, token: world.admin.token });
  const hook = await cp.webhooks.create(world.tenant.id, {
    url: `${receiver.url}/hook`,
    events: ["user.created"],
    ...(secret ? { secret } : {}),
  });
  await cp.webhooks.test(world.tenant.id, hook.id);
  const [received] = await receiver.waitFor(1);
  return { cp, tenantId: world.tenant.id, hook, secret: hook.secret!, received: received! };
}

const only = (r: Received, names: string[]) => Object.fromEntries(Object.entries(r.headers).filter(([name]) => names.includes(name)));
const STANDARD = ["webhook-id", "webhook-timestamp", "webhook-signature"];
const LEGACY = ["x-webhook-signature", "x-webhook-timestamp"];

const refusal = (input: Parameters<typeof verifyWebhook>[0]) => {
  try {
    verifyWebhook(input);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as Error).message;
  }
};

describe("real deliveries", () => {
  test("a delivery verifies by its Standard Webhooks headers and by X-Webhook-Signature alone; the payload is returned", async () => {
    const { received, secret, tenantId } = await delivered();
    const event = verifyWebhook({ secret, headers: received.headers, body: received.body });
    expect(event).toMatchObject({ type: "webhook.test", tenant_id: tenantId });
    expect(verifyWebhook({ secret, headers: only(received, STANDARD), body: received.body }).id).toBe(event.id);
    expect(verifyWebhook({ secret, headers: only(received, LEGACY), body: received.body }).id).toBe(event.id);
    expect(
      verifyWebhook({ secret, headers: new Headers(received.headers as Record<string, string>), body: Buffer.from(received.body) }).id,
    ).toBe(event.id);
  });

  test("a changed body, another secret, or a timestamp past the tolerance is refused, by either header", async () => {
    const { received, secret } = await delivered();
    const tampered = received.body.replace("webhook.test", "webhook.tost");
    for (const names of [STANDARD, LEGACY]) {
      const headers = only(received, names);
      expect(refusal({ secret, headers, body: tampered })).toBe("no signature matches");
      expect(refusal({ secret: `whsec_${randomBytes(24).toString("base64")}`, headers, body: received.body })).toBe("no signature matches");
      const later = Number(received.headers["webhook-timestamp"]) + 301;
      expect(refusal({ secret, headers, body: received.body, now: later })).toBe("timestamp outside the tolerance");
      expect(refusal({ secret, headers, body: received.body, now: later, toleranceSeconds: 600 })).toBeNull();
    }
    expect(refusal({ secret, headers: {}, body: received.body })).toMatch(/no webhook-signature/);
  });

  test("during a rotation the delivery carries two signatures: the old secret and the new one each verify", async () => {
    const first = await delivered();
    await first.cp.me.stepUp({ password: "admin-password" });
    const rotated = await first.cp.webhooks.rotateSecret(first.tenantId, first.hook.id);
    await first.cp.webhooks.test(first.tenantId, first.hook.id);
    const [, received] = await receiver.waitFor(2);
    expect(String(received!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyWebhook({ secret: rotated.secret, headers: received!.headers, body: received!.body }).type).toBe("webhook.test");
    expect(verifyWebhook({ secret: first.secret, headers: received!.headers, body: received!.body }).type).toBe("webhook.test");
    // X-Webhook-Signature carries the new secret's alone.
    expect(refusal({ secret: first.secret, headers: only(received!, LEGACY), body: received!.body })).toBe("no signature matches");
    expect(refusal({ secret: [first.secret, rotated.secret], headers: only(received!, LEGACY), body: received!.body })).toBeNull();
  });

  test("the standardwebhooks package verifies our delivery made with a whsec_ secret", async () => {
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const { received } = await delivered(secret);
    expect(new Webhook(secret).verify(received.body, only(received, STANDARD) as Record<string, string>)).toMatchObject({
      type: "webhook.test",
    });
    expect(verifyWebhook({ secret, headers: received.headers, body: received.body }).type).toBe("webhook.test");
  });
});

describe("signatures made by the standardwebhooks package", () => {
  const body = JSON.stringify({ id: "evt_1", type: "user.created", tenant_id: "t", created_at: new Date().toISOString(), data: {} });
  const signed = (secret: string, webhook: Webhook, at = new Date()) => ({
    "webhook-id": "evt_1",
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": webhook.sign("evt_1", at, body),
  });

  test("a whsec_ secret (base64 key) and a raw secret (its UTF-8 bytes) both verify", () => {
    const whsec = `whsec_${randomBytes(24).toString("base64")}`;
    expect(verifyWebhook({ secret: whsec, headers: signed(whsec, new Webhook(whsec)), body }).id).toBe("evt_1");
    const raw = "a-raw-secret-of-enough-length";
    expect(verifyWebhook({ secret: raw, headers: signed(raw, new Webhook(raw, { format: "raw" })), body }).id).toBe("evt_1");
  });

  test("an old signature is refused, and so is one by another key", () => {
    const whsec = `whsec_${randomBytes(24).toString("base64")}`;
    const old = signed(whsec, new Webhook(whsec), new Date(Date.now() - 10 * 60_000));
    expect(refusal({ secret: whsec, headers: old, body })).toBe("timestamp outside the tolerance");
    const other = `whsec_${randomBytes(24).toString("base64")}`;
    expect(refusal({ secret: whsec, headers: signed(other, new Webhook(other)), body })).toBe("no signature matches");
  });
});
