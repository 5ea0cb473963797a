/** What the audit journeys share: dates as the console reads them, and appending as an application. */
import type { APIRequestContext } from "@playwright/test";
import { OPERATOR_TOKEN } from "./constants";
import { expect } from "./identity";

export const DAY = 24 * 60 * 60 * 1000;
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
/** A `datetime-local` value, in UTC as the console's range fields read it. */
export const utcInput = (days: number) => daysAgo(days).slice(0, 16);

export interface AppendedEvent {
  id: string;
  event_type: string;
  timestamp: string;
  sequence: number;
}

/** Appends an event as the tenant's own application would (POST /tenants/{id}/audit), as the operator. */
export async function append(request: APIRequestContext, tenantId: string, body: Record<string, unknown>): Promise<AppendedEvent> {
  const response = await request.post(`/api/v1/tenants/${tenantId}/audit`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as AppendedEvent;
}

export const BILLING = { id: "billing-service", email: "billing@example.com" };
