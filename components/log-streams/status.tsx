"use client";

import { Badge } from "../ui/badge";
import { RelativeTime } from "../ui/relative-time";
import type { LogStream, LogStreamBatch, LogStreamState } from "./types";

const STATES: Record<LogStreamState, { tone: "success" | "neutral" | "danger"; label: string; about: string }> = {
  active: { tone: "success", label: "Active", about: "Sending each new batch as it fills." },
  paused: { tone: "neutral", label: "Paused", about: "Sends nothing until resumed; it picks up from its cursor then." },
  failing: {
    tone: "danger",
    label: "Failing",
    about: "Every batch has failed for 24 hours. It keeps retrying and resumes from its cursor when the receiver recovers.",
  },
};

export function stateAbout(state: LogStreamState): string {
  return STATES[state].about;
}

export function StateBadge({ state }: { state: LogStreamState }) {
  return (
    <span data-testid="stream-state" data-state={state} title={STATES[state].about}>
      <Badge tone={STATES[state].tone}>{STATES[state].label}</Badge>
    </span>
  );
}

const count = new Intl.NumberFormat("en");

export function formatCount(n: number): string {
  return count.format(n);
}

/** "1 event", "1,000 events". */
export function eventsLabel(n: number): string {
  return `${formatCount(n)} ${n === 1 ? "event" : "events"}`;
}

/** "Caught up", or how many events the receiver does not have yet. */
export function lagLabel(lag: number): string {
  return lag === 0 ? "Caught up" : `${eventsLabel(lag)} behind`;
}

export function Lag({ stream }: { stream: Pick<LogStream, "lag_events"> }) {
  return (
    <span data-testid="stream-lag" data-lag={stream.lag_events}>
      {lagLabel(stream.lag_events)}
    </span>
  );
}

/** "Sent", "Failed", and a Test marker for the test batches. */
/** When the stream last sent a batch. */
export function LastBatch({ stream }: { stream: Pick<LogStream, "last_batch_at"> }) {
  return stream.last_batch_at ? <RelativeTime iso={stream.last_batch_at} /> : <span className="text-slate-500">None yet</span>;
}

export function BatchStatus({ batch }: { batch: Pick<LogStreamBatch, "status" | "test"> }) {
  return (
    <span className="inline-flex flex-wrap gap-1" data-testid="batch-status" data-status={batch.status}>
      <Badge tone={batch.status === "succeeded" ? "success" : "danger"}>{batch.status === "succeeded" ? "Sent" : "Failed"}</Badge>
      {batch.test ? <Badge tone="accent">Test</Badge> : null}
    </span>
  );
}

/** "HTTP 200", what went wrong before any answer came, or the answer's first words. */
export function answerLabel(answer: { response_status: number | null; error: string | null }): string {
  if (answer.response_status) return `HTTP ${answer.response_status}`;
  return answer.error ?? "No response";
}

/** "1–1,000", "42" for a batch of one sequence, "Test" for a test batch (which is outside the log). */
export function rangeLabel(batch: Pick<LogStreamBatch, "from_sequence" | "to_sequence" | "test">): string {
  if (batch.test) return "Test";
  return batch.from_sequence === batch.to_sequence
    ? formatCount(batch.from_sequence)
    : `${formatCount(batch.from_sequence)}–${formatCount(batch.to_sequence)}`;
}

/** How often a stream's page asks again: every few seconds while behind, else now and then. */
export const BEHIND_POLL_MS = 3_000;
export const IDLE_POLL_MS = 15_000;

export function streamPoll(streams: Array<Pick<LogStream, "lag_events" | "state">> | undefined): number {
  return streams?.some((s) => s.lag_events > 0 && s.state !== "paused") ? BEHIND_POLL_MS : IDLE_POLL_MS;
}
