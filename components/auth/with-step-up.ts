/** Whether a failed call wants a fresh step-up (tRPC UNAUTHORIZED with appCode step_up_required). */
export function isStepUpRequired(error: unknown): boolean {
  return (error as { data?: { appCode?: string } } | null)?.data?.appCode === "step_up_required";
}

/**
 * Runs a call that needs a step-up: asks for it first, and once more (then retries once) if the
 * server still answers step_up_required, e.g. because the step-up expired in between. `action`
 * names what is confirmed, for the dialog ("delete webhook https://…": "Confirm it's you to delete
 * webhook https://…"). Resolves false when the person cancelled the dialog; the call's own errors
 * are thrown.
 */
export async function withStepUp(
  ensureSteppedUp: (action: string) => Promise<boolean>,
  action: string,
  call: () => Promise<unknown>,
): Promise<boolean> {
  if (!(await ensureSteppedUp(action))) return false;
  try {
    await call();
  } catch (error) {
    if (!isStepUpRequired(error)) throw error;
    if (!(await ensureSteppedUp(action))) return false;
    await call();
  }
  return true;
}

/**
 * Runs a call that needs a step-up only for some changes (which the server decides: an SSO
 * provider's URL or domains, a webhook's URL): tries it as it is, and only if the server answers
 * step_up_required asks for the step-up and retries, as `withStepUp`. Resolves false when the
 * person cancelled the dialog; the call's own errors are thrown.
 */
export async function stepUpIfAsked(
  ensureSteppedUp: (action: string) => Promise<boolean>,
  action: string,
  call: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    if (!isStepUpRequired(error)) throw error;
    return withStepUp(ensureSteppedUp, action, call);
  }
}
