/**
 * Tests seed logs with kinds and timestamps of their own, as a tenant's application would append
 * them; the control plane's emitEvent takes only its own kinds (EventType). They are recorded as
 * appended (source `api`) by TEST_APPENDER, without a token.
 */
import {
  recordAppendedEvents,
  type EventActor,
  type AppendedBy,
  type AppendedEventInput,
  type EventTx,
  type RecordedEvent,
} from "../../server/events/emit.ts";

export const TEST_APPENDER: AppendedBy = { tokenId: null, userId: "test-seed" };

export async function emitEvent(tx: EventTx, actor: EventActor, event: AppendedEventInput): Promise<RecordedEvent> {
  const [row] = await recordAppendedEvents(tx, [{ actor, event, appendedBy: TEST_APPENDER }]);
  return { id: row!.id, timestamp: row!.timestamp, sequence: row!.sequence };
}

/**
 * An event as read (list, one event, search) without what is read with it and never stored
 * (`actor.name`, `source_token_name`): as an append answers, an export writes and a stream sends.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function storedForm(event: any): Record<string, unknown> {
  const { source_token_name: _token, actor, ...rest } = event as { source_token_name?: unknown; actor: Record<string, unknown> };
  const { name: _name, ...stored } = actor;
  return { ...rest, actor: stored };
}
