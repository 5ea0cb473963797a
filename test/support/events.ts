/**
 * Tests seed logs with kinds and timestamps of their own, as a tenant's application would append
 * them; the control plane's emitEvent takes only its own kinds (EventType).
 */
import {
  recordAppendedEvents,
  type EventActor,
  type AppendedEventInput,
  type EventTx,
  type RecordedEvent,
} from "../../server/events/emit.ts";

export async function emitEvent(tx: EventTx, actor: EventActor, event: AppendedEventInput): Promise<RecordedEvent> {
  const [row] = await recordAppendedEvents(tx, [{ actor, event }]);
  return { id: row!.id, timestamp: row!.timestamp, sequence: row!.sequence };
}
