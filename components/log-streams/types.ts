/** What the console reads of the log streams API: the server's own types (server/log-streams/schemas.ts). */
import type { LogStream, LogStreamBatch, LogStreamState, LogStreamTestResult, LogStreamType } from "@/server/log-streams/schemas";

export type { LogStream, LogStreamBatch, LogStreamState, LogStreamTestResult, LogStreamType };
