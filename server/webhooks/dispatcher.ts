/**
 * First attempts right after commit. Every instance LISTENs on the outbox channel; a commit that
 * wrote deliveries notifies them all (pg_notify fires only on commit), and each runs the engine,
 * the row locks deciding who sends what. Wake-ups during a run coalesce into one more run, and a
 * run that sent something is followed by another (a budget may have cut it short). Once a run
 * finds nothing, a timer waits for the earliest retry that falls due within a minute, so short
 * retry schedules keep their times; the cron route (and the internal ticker) remain the safety net.
 */
import type { Database } from "../db/client.ts";
import { log, errorFields } from "../log.ts";
import { deliverDue, nextDueAt, type DeliverOptions } from "./engine.ts";
import { WAKE_CHANNEL } from "./outbox.ts";

const MAX_TIMER_MS = 60_000;
const MIN_TIMER_MS = 50;
/** A delivery already due but leased by another run: look again in a second. */
const BUSY_RETRY_MS = 1000;

class Dispatcher {
  private running = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private idleWaiters: (() => void)[] = [];
  stopListening: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Database,
    private readonly options: DeliverOptions,
  ) {}

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.loop();
  }

  private async loop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    do {
      this.again = false;
      try {
        // A run that sent something may have stopped at its budget with more due: run again now
        // rather than after the timer's second (the next run ends at its first empty claim).
        const summary = await deliverDue(this.db, { ...this.options, signal: this.stopping.signal });
        if (summary.claimed > 0 && !this.stopped) this.again = true;
      } catch (error) {
        log.error("webhook dispatcher run failed", errorFields(error));
      }
    } while (this.again);
    this.running = false;
    await this.armTimer();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async armTimer() {
    try {
      const at = await nextDueAt(this.db);
      if (!at || this.running || this.stopped) return;
      const wait = at.getTime() - Date.now();
      const delay = wait <= 0 ? BUSY_RETRY_MS : Math.max(MIN_TIMER_MS, wait);
      if (delay > MAX_TIMER_MS) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.wake(), delay);
      this.timer.unref();
    } catch (error) {
      log.warn("webhook dispatcher could not read the next due time", errorFields(error));
    }
  }

  stopped = false;
  private readonly stopping = new AbortController();

  /** Claims nothing more, hands back unstarted claims, and resolves once the run in flight is recorded. */
  async stop() {
    this.stopped = true;
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.stopListening?.();
    if (this.running) await this.idle();
  }

  idle(): Promise<void> {
    return this.running ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }
}

const holder = globalThis as unknown as { __webhookDispatchers?: WeakMap<Database, Dispatcher> };
const dispatchers = (holder.__webhookDispatchers ??= new WeakMap());

/** Starts this process's dispatcher for `db` (idempotent); returns a function that stops it. */
export async function startWebhookDispatcher(db: Database, options: DeliverOptions = {}): Promise<() => Promise<void>> {
  let dispatcher = dispatchers.get(db);
  if (!dispatcher) {
    dispatcher = new Dispatcher(db, options);
    dispatchers.set(db, dispatcher);
    const d = dispatcher;
    try {
      d.stopListening = await db.listen(WAKE_CHANNEL, () => d.wake());
    } catch (error) {
      // Without LISTEN (e.g. a transaction-pooling proxy) first attempts wait for the cron tick.
      log.warn("webhook dispatcher cannot LISTEN; deliveries wait for the cron", errorFields(error));
    }
  }
  const d = dispatcher;
  return async () => {
    dispatchers.delete(db);
    await d.stop();
  };
}

/** Asks this process's dispatcher (if started) to run now, e.g. after a manual retry. */
export function wakeDispatcher(db: Database): void {
  dispatchers.get(db)?.wake();
}
