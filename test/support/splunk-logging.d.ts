// splunk-logging ships no types: what test/integration/log-streams-receivers.test.ts uses of it.
declare module "splunk-logging" {
  export interface SplunkLoggerConfig {
    token: string;
    url?: string;
    maxBatchCount?: number;
    maxRetries?: number;
  }
  export interface SplunkPayload {
    message: unknown;
    severity?: string;
    metadata?: { time?: number; host?: string; source?: string; sourcetype?: string; index?: string };
  }
  export type SplunkCallback = (error: Error | null, response: { statusCode: number } | null, body: unknown) => void;
  export class Logger {
    constructor(config: SplunkLoggerConfig);
    requestOptions: { headers?: Record<string, string>; [option: string]: unknown };
    error: (error: Error, context: unknown) => void;
    send(payload: SplunkPayload, callback?: SplunkCallback): void;
    flush(callback?: SplunkCallback): void;
  }
  const splunk: { Logger: typeof Logger };
  export default splunk;
}
