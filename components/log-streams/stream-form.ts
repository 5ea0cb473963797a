/**
 * The add/edit form of a log stream: its values, the API input they make, the checks made before
 * a round trip (the server's own config schemas) and where the server's field errors go. The
 * server stays the authority: where a URL may point, whether the receiver answers.
 */
import { CONFIG_SCHEMAS, MAX_NAME_LENGTH } from "@/server/log-streams/schemas";
import type { FieldErrors } from "../form-errors";
import { fieldErrorsOf } from "../trpc";
import { ALL_EVENTS, subscribesToAll } from "../webhooks/event-kinds";
import type { EventsChoice } from "../webhooks/events-picker";
import { CONFIG_FIELDS, isSecret, type ConfigField } from "./stream-types";
import type { LogStream, LogStreamType } from "./types";

/** The config's fields as typed: text, or on/off for checkboxes. */
export type ConfigValues = Record<string, string | boolean>;
export type StartMode = "now" | "oldest" | "date";

export interface StreamFormValues {
  name: string;
  type: LogStreamType;
  config: ConfigValues;
  events: EventsChoice;
  /** Create only. `date`: a datetime-local value, the person's own time. */
  start: { mode: StartMode; date: string };
}

const DEFAULTS: Partial<Record<LogStreamType, ConfigValues>> = {
  s3: { path_style: false },
  datadog: { site: "datadoghq.com" },
  syslog: { port: "6514", tls: true },
};

/** A new stream's fields for `type`, or an existing stream's (its secrets blank: left blank, they are kept). */
export function initialConfig(type: LogStreamType, stream?: Pick<LogStream, "type" | "config">): ConfigValues {
  const values: ConfigValues = {};
  const stored = stream?.type === type ? (stream.config as Record<string, unknown>) : {};
  for (const field of CONFIG_FIELDS[type]) {
    const value = stored[field.name];
    if (field.kind === "checkbox") values[field.name] = typeof value === "boolean" ? value : (DEFAULTS[type]?.[field.name] ?? false);
    else if (isSecret(type, field.name) || value === undefined || value === null)
      values[field.name] = stream ? "" : (DEFAULTS[type]?.[field.name] ?? "");
    else values[field.name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return values;
}

export function initialEvents(stream?: Pick<LogStream, "event_types">): EventsChoice {
  const kinds = stream?.event_types;
  return !kinds || subscribesToAll(kinds) ? { all: true, kinds: [] } : { all: false, kinds };
}

/** Whether a stored secret stands behind this field (`<field>_set` in the representation). */
export function secretIsSet(stream: Pick<LogStream, "config"> | undefined, name: string): boolean {
  return (stream?.config as Record<string, unknown> | undefined)?.[`${name}_set`] === true;
}

function valueOf(field: ConfigField, raw: string | boolean | undefined): unknown {
  if (field.kind === "checkbox") return raw === true;
  const text = typeof raw === "string" ? (field.kind === "secret" || field.kind === "certificates" ? raw : raw.trim()) : "";
  if (text.trim() === "") return undefined;
  if (field.kind === "port") return /^\d+$/.test(text) ? Number(text) : text;
  if (field.kind === "list")
    return [
      ...new Set(
        text
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
  return text;
}

/** The config to send: fields left empty are left out (a blank secret of an edited stream is kept). */
export function configOf(type: LogStreamType, values: ConfigValues): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of CONFIG_FIELDS[type]) {
    const value = valueOf(field, values[field.name]);
    if (value !== undefined) config[field.name] = value;
  }
  return config;
}

/**
 * An edit's config PATCH, merged by the server over the stored one: what changed, an optional
 * field emptied as null (removed), a blank secret left out (kept). Null when nothing changed,
 * so a rename alone sends no config (and needs no step-up).
 */
export function configPatchOf(stream: Pick<LogStream, "type" | "config">, values: ConfigValues): Record<string, unknown> | null {
  const before = configOf(stream.type, initialConfig(stream.type, stream));
  const after = configOf(stream.type, values);
  const patch: Record<string, unknown> = {};
  for (const field of CONFIG_FIELDS[stream.type]) {
    const [was, now] = [before[field.name], after[field.name]];
    if (now !== undefined && JSON.stringify(now) !== JSON.stringify(was)) patch[field.name] = now;
    else if (now === undefined && was !== undefined && !isSecret(stream.type, field.name)) patch[field.name] = null;
  }
  return Object.keys(patch).length ? patch : null;
}

export function eventTypesOf(choice: EventsChoice): string[] {
  return choice.all ? [ALL_EVENTS] : choice.kinds;
}

/** `start_from` as the API takes it: now, oldest, or the chosen local time as an ISO date-time. */
export function startFromOf(start: StreamFormValues["start"]): string {
  if (start.mode !== "date") return start.mode;
  const at = new Date(start.date);
  return Number.isNaN(at.getTime()) ? start.date : at.toISOString();
}

/** The fields in form order with the id of their control, to focus the first with an error. */
export function fieldIds(type: LogStreamType): Array<[string, string]> {
  return [
    ["name", "stream-name"],
    ["type", `stream-type-${type}`],
    ...CONFIG_FIELDS[type].map((f): [string, string] => [`config.${f.name}`, `stream-config-${f.name}`]),
    ["events", "stream-events"],
    ["start_from", "stream-start-date"],
  ];
}

function configLabel(type: LogStreamType, name: string): string | undefined {
  return CONFIG_FIELDS[type].find((f) => f.name === name)?.label;
}

/** What is plainly wrong before asking the server: the type's own schema, with a kept secret counted as given. */
export function checkStream(values: StreamFormValues, stream?: Pick<LogStream, "config">): FieldErrors {
  const errors: FieldErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = "Name is required";
  else if (name.length > MAX_NAME_LENGTH) errors.name = `Name must be at most ${MAX_NAME_LENGTH} characters`;
  const config = configOf(values.type, values.config);
  const checked = CONFIG_SCHEMAS[values.type].safeParse(config);
  for (const issue of checked.success ? [] : checked.error.issues) {
    const field = String(issue.path[0] ?? "");
    if (isSecret(values.type, field) && config[field] === undefined && secretIsSet(stream, field)) continue;
    const label = configLabel(values.type, field);
    const key = `config.${field}`;
    if (label && !errors[key])
      errors[key] = issue.code === "invalid_type" && config[field] === undefined ? `${label} is required` : `${label} ${issue.message}`;
  }
  if (!values.events.all && values.events.kinds.length === 0) errors.events = "Pick at least one event, or choose All events";
  if (values.start.mode === "date" && Number.isNaN(new Date(values.start.date).getTime()))
    errors.start_from = "Pick the date and time to start from";
  return errors;
}

/** The server's field errors (`config.bucket`, `event_types.2`, `name`) on the form's fields; null if none fit. */
export function serverStreamErrors(error: unknown, type: LogStreamType): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const { path, message } of fieldErrorsOf(error)) {
    const [head, rest] = [path.split(".")[0]!, path.split(".").slice(1).join(".")];
    let key: string | null = null;
    let label: string | undefined;
    if (head === "config" && rest) [key, label] = [`config.${rest.split(".")[0]}`, configLabel(type, rest.split(".")[0]!)];
    else if (head === "config") [key, label] = [`config.${CONFIG_FIELDS[type][0]!.name}`, "Config"];
    else if (configLabel(type, head)) [key, label] = [`config.${head}`, configLabel(type, head)];
    else if (head === "name") [key, label] = ["name", "Name"];
    else if (head === "event_types") [key, label] = ["events", rest ? `Event ${Number(rest) + 1}` : "Events"];
    else if (head === "start_from") [key, label] = ["start_from", "Start"];
    if (key && label && !errors[key]) errors[key] = `${label} ${message}`;
  }
  return Object.keys(errors).length ? errors : null;
}
