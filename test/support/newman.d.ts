// newman ships no types (and @types/newman is not installed): what test/integration/directories-newman.test.ts uses.
declare module "newman" {
  export interface NewmanRunOptions {
    collection: unknown;
    folder?: string[];
    envVar?: { key: string; value: string }[];
    reporters?: string[];
  }
  export interface NewmanAssertion {
    assertion: string;
    error?: { message: string };
  }
  export interface NewmanExecution {
    item: { name: string };
    requestError?: unknown;
    assertions?: NewmanAssertion[];
    response?: { code: number; text(): string };
  }
  export interface NewmanRunSummary {
    run: { executions: NewmanExecution[]; stats: { assertions: { total: number; failed: number } } };
  }
  export function run(options: NewmanRunOptions, callback: (error: Error | null, summary: NewmanRunSummary) => void): void;
  const newman: { run: typeof run };
  export default newman;
}
