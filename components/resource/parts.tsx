"use client";

import type { ComponentType, ReactNode } from "react";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Switch } from "../ui/switch";
import { PlusIcon } from "../icons";

/** An icon of components/icons.tsx (or a feature's own), drawn at the size its place asks for. */
export type ActionIcon = ComponentType<{ className?: string }>;

/**
 * The badge a card's header shows to someone who may only look; nothing while the role loads or
 * for those who may write. A value rather than a component, so the header gets no empty slot.
 */
export function readOnlyBadge(canWrite: boolean, loading: boolean): ReactNode {
  return canWrite || loading ? null : <Badge>Read-only</Badge>;
}

/** "Add webhook", "Add your first directory": the primary button that opens the add dialog. */
export function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button onClick={onClick}>
      <PlusIcon className="size-4" />
      {label}
    </Button>
  );
}

export interface EnabledSwitchProps {
  /** What the switch turns on and off, as people know it: its accessible name is "Enable {name}". */
  name: string;
  enabled: boolean;
  onChange: (enabled: boolean) => void;
  /** The change is on its way. */
  busy: boolean;
  /** Shown to viewers too, disabled. */
  canWrite: boolean;
}

/** What a switch needs of a resource's actions (useWebhookActions and its kin). */
export interface SwitchActions<T> {
  setEnabled: (resource: T, enabled: boolean) => void;
  switching: (resource: T) => boolean;
}

/** The switch of `resource`, named `name`, wired to its actions. */
export function switchOf<T extends { enabled: boolean }>(
  actions: SwitchActions<T>,
  resource: T,
  name: string,
  canWrite: boolean,
): EnabledSwitchProps {
  return {
    name,
    enabled: resource.enabled,
    onChange: (on) => actions.setEnabled(resource, on),
    busy: actions.switching(resource),
    canWrite,
  };
}

/** A resource's on/off switch, in its list row and on its page. */
export function EnabledSwitch({ name, enabled, onChange, busy, canWrite }: EnabledSwitchProps) {
  return <Switch checked={enabled} onCheckedChange={onChange} busy={busy} disabled={!canWrite} aria-label={`Enable ${name}`} />;
}
