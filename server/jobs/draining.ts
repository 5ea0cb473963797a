/**
 * Whether this process is stopping (SIGTERM received). Kept on globalThis so Next's bundles and
 * the node:http server see one flag; readiness answers 503 and delivery runs stop claiming.
 */
const holder = globalThis as unknown as { __controlPlaneDrain?: AbortController };
const controller = (holder.__controlPlaneDrain ??= new AbortController());

/** Aborted when the process starts draining; delivery runs pass it to stop claiming. */
export const drainSignal: AbortSignal = controller.signal;

export function isDraining(): boolean {
  return controller.signal.aborted;
}

export function startDraining(): void {
  controller.abort();
}
