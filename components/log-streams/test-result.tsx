"use client";

import { Alert } from "../ui/alert";
import type { LogStreamTestResult } from "./types";

/** "the receiver took it: HTTP 200 in 84 ms", "failed: connection refused after 3 ms". */
export function describeTest(result: LogStreamTestResult): { tone: "success" | "danger"; text: string } {
  const answer = result.response_status ? `HTTP ${result.response_status}` : (result.error ?? "no response");
  return result.ok
    ? { tone: "success", text: `the receiver took it (${answer} in ${result.duration_ms} ms)` }
    : {
        tone: "danger",
        text: `failed (${answer} after ${result.duration_ms} ms)${result.response_status && result.error ? `: ${result.error}` : ""}`,
      };
}

/** The last test batch's outcome on the stream's page, with what the receiver said. */
export function TestResult({ result }: { result: LogStreamTestResult }) {
  const { tone, text } = describeTest(result);
  return (
    <div data-testid="test-result" data-ok={result.ok}>
      <Alert tone={tone} title={`Test batch: ${text}`}>
        {result.response_body ? (
          <pre className="mt-1 max-h-40 overflow-auto font-mono text-xs break-all whitespace-pre-wrap">{result.response_body}</pre>
        ) : result.response_status ? (
          <p className="mt-1 text-xs">The receiver sent no body.</p>
        ) : null}
      </Alert>
    </div>
  );
}
