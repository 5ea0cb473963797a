/**
 * Delivery core: first attempts right after commit, one dispatcher per kind and database. Every
 * instance LISTENs on the kind's wake channel; a commit that wrote items notifies them all
 * (pg_notify fires only on commit), and each runs the engine, the row locks deciding who sends
 * what. Wake-ups during a run coalesce into one more run, and a run that sent something is
 * followed by another (a budget may have cut it short). Once a run finds nothing, a timer waits
 * for the earliest retry that falls due within a minute, so short retry schedules keep their
 * times; the cron route (and the internal ticker) remain the safety net.
 */
import type { Database } from "../db/client.ts";
import { log, errorFields } from "../log.ts";
import { deliverDue, nextDueAt, type DeliverOptions } from "./engine.ts";
import type { DeliveryKind, Sent } from "./kind.ts";

const MAX_TIMER_MS = 60_000;
const MIN_TIMER_MS = 50;
/** An item already due but leased by another run: look again in a second. */
const BUSY_RETRY_MS = 1000;

class Dispatcher<Row extends object, Result extends Sent> {
  private running = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private idleWaiters: (() => void)[] = [];
  stopListening: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Database,
    private readonly kind: DeliveryKind<Row, Result>,
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
        const summary = await deliverDue(this.db, this.kind, { ...this.options, signal: this.stopping.signal });
        if (summary.claimed > 0 && !this.stopped) this.again = true;
      } catch (error) {
        log.error(`${this.kind.name} dispatcher run failed`, errorFields(error));
      }
    } while (this.again);
    this.running = false;
    await this.armTimer();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async armTimer() {
    try {
      const at = await nextDueAt(this.db, this.kind);
      if (!at || this.running || this.stopped) return;
      const wait = at.getTime() - Date.now();
      const delay = wait <= 0 ? BUSY_RETRY_MS : Math.max(MIN_TIMER_MS, wait);
      if (delay > MAX_TIMER_MS) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.wake(), delay);
      this.timer.unref();
    } catch (error) {
      log.warn(`${this.kind.name} dispatcher could not read the next due time`, errorFields(error));
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

interface Running {
  wake(): void;
  stop(): Promise<void>;
}

// On globalThis, by kind name: Next's bundles (instrumentation, route handlers) each load this
// module and the kind's, so a route's wake-up must find the dispatcher start-up made elsewhere.
const holder = globalThis as unknown as { __deliveryDispatchers?: WeakMap<Database, Map<string, Running>> };
const dispatchers = (holder.__deliveryDispatchers ??= new WeakMap());

function of(db: Database): Map<string, Running> {
  let byKind = dispatchers.get(db);
  if (!byKind) dispatchers.set(db, (byKind = new Map()));
  return byKind;
}

/** Starts this process's dispatcher of `kind` for `db` (idempotent); returns a function that stops it. */
export async function startDispatcher<Row extends object, Result extends Sent>(
  db: Database,
  kind: DeliveryKind<Row, Result>,
  options: DeliverOptions = {},
): Promise<() => Promise<void>> {
  const byKind = of(db);
  let running = byKind.get(kind.name);
  if (!running) {
    const d = new Dispatcher(db, kind, options);
    byKind.set(kind.name, d);
    running = d;
    try {
      d.stopListening = await db.listen(kind.queue.wakeChannel, () => d.wake());
    } catch (error) {
      // Without LISTEN (e.g. a transaction-pooling proxy) first attempts wait for the cron tick.
      log.warn(`${kind.name} dispatcher cannot LISTEN; deliveries wait for the cron`, errorFields(error));
    }
  }
  const d = running;
  return async () => {
    byKind.delete(kind.name);
    await d.stop();
  };
}

/** Asks this process's dispatcher of `kind` (if started) to run now, e.g. after a manual retry. */
export function wakeDispatcher(db: Database, kind: Pick<DeliveryKind, "name">): void {
  dispatchers.get(db)?.get(kind.name)?.wake();
}
