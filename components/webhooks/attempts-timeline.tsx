"use client";

import { Badge } from "../ui/badge";
import { cx } from "../ui/cx";
import { formatExact } from "../ui/relative-time";
import { AttemptExchange } from "./attempt-exchange";
import { responseLabel } from "./status";
import type { Attempt, Delivery } from "./types";
import { When } from "./when";

function succeeded(attempt: Attempt): boolean {
  return attempt.response_status !== null && attempt.response_status >= 200 && attempt.response_status < 300;
}

/** Every attempt of a delivery, oldest first: answer, time taken, error, next try, and the request beside the response. */
export function AttemptsTimeline({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        Not attempted yet
        {delivery.next_attempt_at ? (
          <>
            ; the first attempt is due <When iso={delivery.next_attempt_at} />
          </>
        ) : null}
        .
      </p>
    );
  }
  const last = Math.max(...delivery.attempts.map((a) => a.attempt));
  return (
    <ol className="space-y-4 border-l border-slate-200 pl-5" aria-label="Attempts" data-testid="attempts">
      {delivery.attempts.map((attempt) => {
        const ok = succeeded(attempt);
        return (
          <li key={attempt.attempt} className="relative" data-testid="attempt" data-response-status={attempt.response_status ?? ""}>
            <span
              aria-hidden="true"
              className={cx(
                "absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full ring-4 ring-slate-50",
                ok ? "bg-emerald-500" : "bg-red-500",
              )}
            />
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <span className="font-medium text-slate-900">Attempt {attempt.attempt}</span>
              <Badge tone={ok ? "success" : "danger"}>{responseLabel(attempt.response_status)}</Badge>
              {attempt.duration_ms !== null ? <span className="text-slate-600">{attempt.duration_ms} ms</span> : null}
              <time dateTime={attempt.started_at} className="text-slate-600">
                {formatExact(attempt.started_at)}
              </time>
            </div>
            {attempt.error && attempt.error !== responseLabel(attempt.response_status) ? (
              <p className="mt-1 text-sm break-words text-red-700" data-testid="attempt-error">
                {attempt.error}
              </p>
            ) : null}
            {attempt.next_attempt_at ? (
              <p className="mt-1 text-sm text-slate-600" data-testid="next-attempt">
                {attempt.attempt === last && delivery.next_attempt_at ? (
                  <>
                    Next attempt <When iso={delivery.next_attempt_at} /> ({formatExact(delivery.next_attempt_at)})
                  </>
                ) : (
                  <>Retry scheduled for {formatExact(attempt.next_attempt_at)}</>
                )}
              </p>
            ) : null}
            <AttemptExchange attempt={attempt} payload={delivery.payload} />
          </li>
        );
      })}
    </ol>
  );
}
