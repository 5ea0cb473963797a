"use client";

import { useState, type ReactNode } from "react";
import { useStepUp } from "../auth/step-up-dialog";
import { stepUpIfAsked, withStepUp } from "../auth/with-step-up";
import { messageOf } from "../trpc";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";

/** The words of a resource's switch: the verb and what it is after ("enable", "enabled"). */
export interface SwitchWords {
  on: [verb: string, done: string];
  off: [verb: string, done: string];
}

const ENABLE: SwitchWords = { on: ["enable", "enabled"], off: ["disable", "disabled"] };

interface ResourceActionsOptions<T> {
  /** The resource in the step-up dialog's words: "webhook" → "Confirm it's you to enable webhook …". */
  noun: string;
  /** What people call one (its URL, its name). */
  nameOf: (resource: T) => string;
  /** Turns it on or off; may answer step_up_required. */
  toggle: (resource: T, enabled: boolean) => Promise<unknown>;
  words?: SwitchWords;
  /** Said after "is {done}" when it is turned on (": it picks up from its cursor"). */
  onNote?: string;
}

export interface ResourceActionsCore<T> {
  notify: ReturnType<typeof useToast>;
  ensureSteppedUp: (action: string) => Promise<boolean>;
  /** For calls that need a step-up only for some changes (a new URL): `action` names them. */
  steppingUpIfAsked: (action: string, call: () => Promise<unknown>) => Promise<boolean>;
  /** The resource's name as toasts and dialogs show it. */
  named: (resource: T) => ReactNode;
  /** Turns it on or off, with the step-up if the server asks for one, and says how it went in a toast. */
  setEnabled: (resource: T, enabled: boolean) => void;
  /** The step-up dialog these actions may open: render it with the other dialogs. */
  stepUpDialog: ReactNode;
}

/**
 * What the actions of every resource (webhooks, log streams, directories) share: toasts, the
 * step-up, its name in bold, and its switch.
 */
export function useResourceActions<T>({
  noun,
  nameOf,
  toggle,
  words = ENABLE,
  onNote = "",
}: ResourceActionsOptions<T>): ResourceActionsCore<T> {
  const notify = useToast();
  const { ensureSteppedUp, dialog: stepUpDialog } = useStepUp();
  const steppingUpIfAsked = (action: string, call: () => Promise<unknown>) => stepUpIfAsked(ensureSteppedUp, action, call);
  const named = (resource: T) => <span className="font-medium wrap-anywhere">{nameOf(resource)}</span>;

  async function setEnabled(resource: T, enabled: boolean) {
    const [verb, done] = enabled ? words.on : words.off;
    try {
      if (await steppingUpIfAsked(`${verb} ${noun} ${nameOf(resource)}`, () => toggle(resource, enabled))) {
        notify(
          <>
            {named(resource)} is {done}
            {enabled ? onNote : ""}.
          </>,
        );
      }
    } catch (error) {
      notify(
        <>
          {named(resource)} could not be {done}: {messageOf(error)}
        </>,
        "danger",
      );
    }
  }

  return {
    notify,
    ensureSteppedUp,
    steppingUpIfAsked,
    named,
    setEnabled: (resource, enabled) => void setEnabled(resource, enabled),
    stepUpDialog,
  };
}

interface ConfirmedStep<T, R> {
  title: string;
  confirmLabel: string;
  tone?: "danger" | "primary";
  /** What it does, in the dialog. */
  body: (resource: T) => ReactNode;
  /** "always": who you are is confirmed first (a new credential, a deletion that deprovisions); "if-asked": only if the server asks. */
  stepUp: "always" | "if-asked";
  /** The step-up dialog's words ("delete webhook https://…"). */
  action: (resource: T) => string;
  run: (resource: T) => Promise<R>;
  pending: boolean;
  /** After it succeeded and the dialog closed: the toast, the secret shown once, leaving the page. */
  done: (resource: T, result: R) => void;
}

/**
 * An action asked first: the dialog, then the step-up, then the call. Its error stays in the
 * dialog, which stays open; cancelling the step-up leaves the dialog open too.
 */
export function useConfirmedStep<T, R>(
  { ensureSteppedUp }: Pick<ResourceActionsCore<T>, "ensureSteppedUp">,
  step: ConfirmedStep<T, R>,
): { ask: (resource: T) => void; dialog: ReactNode } {
  const [asking, setAsking] = useState<{ resource: T } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    if (!asking) return;
    const { resource } = asking;
    setError(null);
    try {
      let result: { value: R } | undefined;
      const guarded = step.stepUp === "always" ? withStepUp : stepUpIfAsked;
      const done = await guarded(ensureSteppedUp, step.action(resource), async () => {
        result = { value: await step.run(resource) };
      });
      if (!done || !result) return;
      setAsking(null);
      step.done(resource, result.value);
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return {
    ask: (resource) => {
      setError(null);
      setAsking({ resource });
    },
    dialog: asking ? (
      <ConfirmDialog
        title={step.title}
        confirmLabel={step.confirmLabel}
        tone={step.tone}
        pending={step.pending}
        error={error}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      >
        {step.body(asking.resource)}
      </ConfirmDialog>
    ) : null,
  };
}
