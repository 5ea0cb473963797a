/** The Log streams tab's pure parts: the form covers each type's schema, checks as the server does, and places the server's errors. */
import { expect, test } from "vitest";
import {
  CONFIG_SCHEMAS,
  ListBatchesInput,
  ListLogStreamsInput,
  LOG_STREAM_TYPES,
  type LogStream,
} from "../../server/log-streams/schemas.ts";
import { CONFIG_FIELDS, destinationOf } from "../../components/log-streams/stream-types.ts";
import {
  checkStream,
  configOf,
  configPatchOf,
  initialConfig,
  serverStreamErrors,
  startFromOf,
  type StreamFormValues,
} from "../../components/log-streams/stream-form.ts";
import { batchesInput, streamsInput } from "../../components/log-streams/queries.ts";

/** Config keys the form leaves out on purpose: Datadog's intake override is for proxies, set over the API. */
const API_ONLY = new Set(["datadog.endpoint"]);

test("each type's form has a field for every key of its schema, and no other", () => {
  for (const type of LOG_STREAM_TYPES) {
    const keys = Object.keys(CONFIG_SCHEMAS[type].shape).filter((key) => !API_ONLY.has(`${type}.${key}`));
    expect(CONFIG_FIELDS[type].map((f) => f.name).sort(), type).toEqual(keys.sort());
  }
});

const s3Form = (config: Record<string, string | boolean>): StreamFormValues => ({
  name: "Lake",
  type: "s3",
  config: { ...initialConfig("s3"), ...config },
  events: { all: true, kinds: [] },
  start: { mode: "oldest", date: "" },
});

const FILLED = {
  bucket: "audit-lake",
  region: "eu-west-1",
  prefix: " cp ",
  endpoint: "http://127.0.0.1:9000",
  path_style: true,
  access_key_id: "AKIA",
  secret_access_key: " s3cret ",
};

test("a filled S3 form is the config the server's schema takes: trimmed, empty fields left out, the secret as typed", () => {
  const config = configOf("s3", s3Form(FILLED).config);
  expect(config).toEqual({ ...FILLED, prefix: "cp", secret_access_key: " s3cret " });
  expect(CONFIG_SCHEMAS.s3.safeParse(config).success).toBe(true);
  expect(configOf("s3", s3Form({ ...FILLED, prefix: "", endpoint: "" }).config)).not.toHaveProperty("prefix");
  expect(checkStream(s3Form(FILLED))).toEqual({});
});

test("the checks name the field: a bad bucket, a missing region, a missing secret unless one is stored", () => {
  const errors = checkStream(s3Form({ ...FILLED, bucket: "Not_A_Bucket", region: "", secret_access_key: "" }));
  expect(errors["config.bucket"]).toMatch(/^Bucket must be an S3 bucket name/);
  expect(errors["config.region"]).toBe("Region is required");
  expect(errors["config.secret_access_key"]).toBe("Secret access key is required");
  const stored = { config: { ...FILLED, secret_access_key: undefined, secret_access_key_set: true } };
  expect(checkStream(s3Form({ ...FILLED, secret_access_key: "" }), stored)).toEqual({});
  expect(checkStream({ ...s3Form(FILLED), name: " " }).name).toBe("Name is required");
  expect(checkStream({ ...s3Form(FILLED), start: { mode: "date", date: "" } }).start_from).toMatch(/date/);
});

test("syslog: a port as typed becomes a number, and TLS is on by default", () => {
  const config = configOf("syslog", { ...initialConfig("syslog"), host: "siem.acme.com", port: "6514" });
  expect(config).toEqual({ host: "siem.acme.com", port: 6514, tls: true });
  expect(CONFIG_SCHEMAS.syslog.safeParse(config).success).toBe(true);
  expect(configOf("datadog", { ...initialConfig("datadog"), api_key: "k", tags: "env:prod, team:sec,,env:prod" }).tags).toEqual([
    "env:prod",
    "team:sec",
  ]);
});

test("an edited stream's fields come from its representation, its secret blank", () => {
  const stream = {
    type: "datadog",
    config: { site: "datadoghq.eu", api_key_set: true, tags: ["a:1", "b:2"], service: "cp" },
  } as unknown as LogStream;
  expect(initialConfig("datadog", stream)).toEqual({ site: "datadoghq.eu", api_key: "", service: "cp", tags: "a:1, b:2" });
  expect(destinationOf(stream)).toBe("Datadog (datadoghq.eu)");
  expect(destinationOf({ type: "s3", config: { bucket: "b", prefix: "p", endpoint: "http://127.0.0.1:9000" } })).toBe(
    "s3://b/p at 127.0.0.1:9000",
  );
  expect(destinationOf({ type: "syslog", config: { host: "h", port: 514, tls: false } })).toBe("h:514 (plain TCP)");
});

test("an edit sends only what changed: an emptied field as null, a blank secret not at all, nothing for a rename", () => {
  const stream = {
    type: "s3",
    config: { bucket: "lake", region: "eu-west-1", prefix: "cp", path_style: true, access_key_id: "AK", secret_access_key_set: true },
  } as unknown as LogStream;
  const values = initialConfig("s3", stream);
  expect(values.secret_access_key).toBe("");
  expect(configPatchOf(stream, values)).toBeNull();
  expect(configPatchOf(stream, { ...values, prefix: "", region: "us-east-1" })).toEqual({ prefix: null, region: "us-east-1" });
  expect(configPatchOf(stream, { ...values, secret_access_key: "new" })).toEqual({ secret_access_key: "new" });
});

test("the server's field errors land on the form's fields", () => {
  const error = {
    data: {
      errors: [
        { path: "config.endpoint", message: "refused on this server" },
        { path: "event_types.1", message: "is not an event kind" },
        { path: "name", message: "is required" },
        { path: "tenant_id", message: "is not for the form" },
      ],
    },
  };
  expect(serverStreamErrors(error, "s3")).toEqual({
    "config.endpoint": "Endpoint refused on this server",
    events: "Event 2 is not an event kind",
    name: "Name is required",
  });
  expect(serverStreamErrors({ data: { errors: [{ path: "tenant_id", message: "x" }] } }, "s3")).toBeNull();
});

test("start_from: now, oldest, or the local time picked as an ISO instant", () => {
  expect(startFromOf({ mode: "oldest", date: "2026-01-01T10:00" })).toBe("oldest");
  expect(startFromOf({ mode: "date", date: "2026-01-01T10:00" })).toBe(new Date("2026-01-01T10:00").toISOString());
});

test("the pages' first queries are valid API input", () => {
  expect(ListLogStreamsInput.safeParse(streamsInput("t1")).success).toBe(true);
  expect(ListBatchesInput.safeParse(batchesInput("t1", "s1", "c1")).success).toBe(true);
});
