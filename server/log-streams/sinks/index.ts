/** The sink of each stream type (sinks/types.ts is their contract). */
import type { LogStreamType } from "../schemas.ts";
import type { StreamSink } from "./types.ts";
import { sendToDatadog } from "./datadog.ts";
import { sendToHttps } from "./https.ts";
import { sendToS3 } from "./s3.ts";
import { sendToSplunk } from "./splunk.ts";
import { sendToSyslog } from "./syslog.ts";

const SINKS: { [T in LogStreamType]?: StreamSink<T> } = {
  s3: sendToS3,
  https: sendToHttps,
  datadog: sendToDatadog,
  splunk_hec: sendToSplunk,
  syslog: sendToSyslog,
};

export function sinkFor<T extends LogStreamType>(type: T): StreamSink<T> {
  const sink = SINKS[type];
  if (!sink) throw new Error(`no sink for log stream type ${type}`);
  return sink as StreamSink<T>;
}
