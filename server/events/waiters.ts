/**
 * Long polls waiting for a tenant's next event. One LISTEN per process and database (not one
 * connection per waiting request) fans each commit's notice out to the waiters of its tenant; a
 * notice without a tenant (the listener reconnected, so anything may have been missed) wakes them
 * all. Where LISTEN is unavailable, a waiter wakes every POLL_MS to look again. Opened on first
 * use, closed once no one has waited for a while.
 */
import type { Database } from "../db/client.ts";
import { errorFields, log } from "../log.ts";
import { TENANT_EVENTS_CHANNEL } from "./emit.ts";

/** How often a waiter looks again when LISTEN is unavailable. */
export const POLL_MS = 250;
const IDLE_CLOSE_MS = 60_000;

/** A registration made before reading, so an event committed between the read and the wait still wakes it. */
export interface Waiter {
  /** Resolves on a notice for the tenant, at `ms` at the latest, or after POLL_MS without LISTEN. */
  until(ms: number): Promise<void>;
  cancel(): void;
}

class Waiters {
  private readonly byTenant = new Map<string, Set<() => void>>();
  private listening: Promise<boolean> | null = null;
  private stop: (() => Promise<void>) | null = null;
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly db: Database) {}

  private listen(): Promise<boolean> {
    this.listening ??= this.db
      .listen(TENANT_EVENTS_CHANNEL, (tenantId) => this.notify(tenantId))
      .then((stop) => {
        this.stop = stop;
        return true;
      })
      .catch((error: unknown) => {
        log.warn("the Events API cannot LISTEN; long polls poll instead", errorFields(error));
        return false;
      });
    return this.listening;
  }

  private notify(tenantId?: string): void {
    const lists = tenantId ? [this.byTenant.get(tenantId)] : [...this.byTenant.values()];
    for (const list of lists) for (const wake of list ?? []) wake();
  }

  async register(tenantId: string): Promise<Waiter> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const live = await this.listen();
    let wake: () => void = () => undefined;
    let woken = false;
    const set = this.byTenant.get(tenantId) ?? new Set();
    this.byTenant.set(tenantId, set);
    const onNotice = () => {
      woken = true;
      wake();
    };
    set.add(onNotice);
    const cancel = () => {
      set.delete(onNotice);
      if (!set.size) this.byTenant.delete(tenantId);
      if (!this.byTenant.size) this.closeWhenIdle();
    };
    return {
      until: (ms) =>
        new Promise<void>((resolve) => {
          if (woken) return resolve();
          const timer = setTimeout(resolve, live ? ms : Math.min(ms, POLL_MS));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        }).then(() => {
          woken = false;
        }),
      cancel,
    };
  }

  private closeWhenIdle(): void {
    if (this.idle || !this.stop) return;
    this.idle = setTimeout(() => {
      if (this.byTenant.size) return;
      const stop = this.stop;
      this.stop = null;
      this.listening = null;
      this.idle = null;
      void stop?.().catch(() => undefined);
    }, IDLE_CLOSE_MS);
    this.idle.unref();
  }
}

const waiters = new WeakMap<Database, Waiters>();

/** Registers a wait for `tenantId`'s next commit of events (register first, then read). */
export function waitForTenantEvents(db: Database, tenantId: string): Promise<Waiter> {
  let forDb = waiters.get(db);
  if (!forDb) waiters.set(db, (forDb = new Waiters(db)));
  return forDb.register(tenantId);
}
