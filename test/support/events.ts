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
