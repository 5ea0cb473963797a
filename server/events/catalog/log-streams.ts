/**
 * The catalog's kinds about audit log streams (server/log-streams/): the admin's changes, and the
 * engine's notices when a stream starts and stops failing. A stream never sends its own failing
 * and recovered events in a loop: they are ordinary events after the cursor, sent once the
 * receiver answers again.
 */
import { z } from "zod";
import { Changes, details, iso, kind } from "./define.ts";

const name = z.string().meta({ description: "The stream's name." });
const type = z.string().meta({ description: "Its receiver type: s3, datadog, splunk_hec, https or syslog." });
const patched = (description: string, example: Record<string, unknown>) =>
  kind({
    group: "log_stream",
    description,
    target: "log_stream",
    details: details({ name, type, changes: Changes }),
    example: { name: "Splunk", type: "splunk_hec", ...example } as {
      name: string;
      type: string;
      changes: Record<string, { from: unknown; to: unknown }>;
    },
  });

export const logStreamKinds = {
  "log_stream.created": kind({
    group: "log_stream",
    description: "An audit log stream was created.",
    target: "log_stream",
    details: details({
      name,
      type,
      event_types: z.array(z.string()).nullable().meta({ description: "Kinds streamed, or null: all." }),
      start_from: z.string().meta({ description: "`now`, `oldest` or the date it streams from." }),
      cursor_sequence: z.number().int().meta({ description: "The sequence it starts after." }),
    }),
    example: { name: "Splunk", type: "splunk_hec", event_types: null, start_from: "oldest", cursor_sequence: 0 },
  }),
  "log_stream.updated": patched("A stream's name, config or kinds changed (secrets show only as changed).", {
    changes: { config: { from: { index: "main" }, to: { index: "audit" } } },
  }),
  "log_stream.enabled": patched("A stream was resumed: it sends on from its cursor.", { changes: { enabled: { from: false, to: true } } }),
  "log_stream.disabled": patched("A stream was paused: its cursor stays where it is.", { changes: { enabled: { from: true, to: false } } }),
  "log_stream.deleted": kind({
    group: "log_stream",
    description: "A stream was deleted.",
    target: "log_stream",
    details: details({ name, type, cursor_sequence: z.number().int() }),
    example: { name: "Splunk", type: "splunk_hec", cursor_sequence: 1200 },
  }),
  "log_stream.failing": kind({
    group: "log_stream",
    description:
      "Every batch to the stream's receiver has failed for 24 hours. It keeps retrying and resumes from its cursor; " +
      "the tenant's admins are mailed. Emitted once per run of failures.",
    target: "log_stream",
    details: details({
      name,
      type,
      failing_since: iso(),
      cursor_sequence: z.number().int(),
      last_error: z.string().nullable(),
    }),
    example: {
      name: "Splunk",
      type: "splunk_hec",
      failing_since: "2026-12-05T09:00:00.000Z",
      cursor_sequence: 1200,
      last_error: "HTTP 503",
    },
  }),
  "log_stream.recovered": kind({
    group: "log_stream",
    description: "A failing stream's receiver took a batch again; it catches up from its cursor.",
    target: "log_stream",
    details: details({ name, type, failing_since: iso(), cursor_sequence: z.number().int() }),
    example: { name: "Splunk", type: "splunk_hec", failing_since: "2026-12-05T09:00:00.000Z", cursor_sequence: 1201 },
  }),
};
