import { expect, test } from "vitest";
import { deliveryHeaders, redactedHeaders } from "../../server/outbound/signing.ts";

test("every signature is cut to its first five characters, both during a rotation; other headers are kept as sent", () => {
  const headers = deliveryHeaders({
    eventId: "e-1",
    body: "{}",
    timestamp: 1700000000,
    secret: "a".repeat(20),
    previousSecret: "b".repeat(20),
    userAgent: "ControlPlane-Webhooks/1.0",
  });
  const [current, previous] = headers["webhook-signature"].split(" ");
  const redacted = redactedHeaders(headers);
  expect(redacted["webhook-signature"]).toBe(`${current!.slice(0, 8)}… ${previous!.slice(0, 8)}…`);
  expect(redacted["x-webhook-signature"]).toBe(`${headers["x-webhook-signature"].slice(0, 5)}…`);
  expect({ ...redacted, "webhook-signature": "", "x-webhook-signature": "" }).toEqual({
    ...headers,
    "webhook-signature": "",
    "x-webhook-signature": "",
  });
});
