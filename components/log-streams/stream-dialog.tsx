"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MAX_NAME_LENGTH } from "@/server/log-streams/schemas";
import { useFormErrors } from "../form-errors";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { EventsPicker, type EventsChoice } from "../webhooks/events-picker";
import { ConfigFields } from "./config-fields";
import { StartFromField, TypePicker } from "./stream-choices";
import {
  checkStream,
  configOf,
  configPatchOf,
  eventTypesOf,
  fieldIds,
  initialConfig,
  initialEvents,
  secretIsSet,
  serverStreamErrors,
  startFromOf,
  type ConfigValues,
  type StreamFormValues,
} from "./stream-form";
import { CONFIG_FIELDS, TYPE_INFO } from "./stream-types";
import type { LogStream, LogStreamType } from "./types";

interface StreamDialogProps {
  tenantId: string;
  /** The stream to edit; none to add one. */
  stream?: LogStream;
  /** Runs a save, asking for a step-up (then retrying) if the server wants one: a receiver's settings need it. */
  steppingUpIfAsked: (action: string, call: () => Promise<unknown>) => Promise<boolean>;
  onClose: () => void;
  onSaved: (stream: LogStream, created: boolean) => void;
}

/** Adds a stream (name, destination and its settings, events, where to start) or edits one (its type stays). */
export function StreamDialog({ tenantId, stream, steppingUpIfAsked, onClose, onSaved }: StreamDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(stream?.name ?? "");
  const [type, setType] = useState<LogStreamType>(stream?.type ?? "s3");
  // Each type keeps what was typed into it, so trying another type and coming back loses nothing.
  const [configs, setConfigs] = useState<Partial<Record<LogStreamType, ConfigValues>>>(() => ({ [type]: initialConfig(type, stream) }));
  const config = configs[type] ?? initialConfig(type);
  const [events, setEvents] = useState<EventsChoice>(() => initialEvents(stream));
  const [start, setStart] = useState<StreamFormValues["start"]>({ mode: "now", date: "" });
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(fieldIds(type));

  const invalidate = () => queryClient.invalidateQueries(trpc.logStreams.pathFilter());
  const create = useMutation(trpc.logStreams.create.mutationOptions({ onSuccess: invalidate }));
  const update = useMutation(trpc.logStreams.update.mutationOptions({ onSuccess: invalidate }));
  const pending = create.isPending || update.isPending;
  const storedSecrets = new Set(stream ? CONFIG_FIELDS[type].filter((f) => secretIsSet(stream, f.name)).map((f) => f.name) : []);

  function changeConfig(field: string, value: string | boolean) {
    setConfigs((all) => ({ ...all, [type]: { ...config, [field]: value } }));
    clear(`config.${field}`);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const values: StreamFormValues = { name, type, config, events, start };
    if (show(checkStream(values, stream))) return;
    const onError = (error: unknown) => fail(error, serverStreamErrors(error, type));
    let saved: LogStream | undefined;
    const body = { name: name.trim(), config: configOf(type, config) };
    const patch = stream ? configPatchOf(stream, config) : null;
    const save = stream
      ? steppingUpIfAsked(`save changes to log stream ${stream.name}`, async () => {
          saved = await update.mutateAsync({
            tenant_id: tenantId,
            stream_id: stream.id,
            name: body.name,
            ...(patch ? { config: patch } : {}),
            event_types: events.all ? null : eventTypesOf(events),
          });
        })
      : steppingUpIfAsked(`add log stream ${body.name}`, async () => {
          saved = await create.mutateAsync({
            tenant_id: tenantId,
            ...body,
            type,
            ...(events.all ? {} : { event_types: eventTypesOf(events) }),
            start_from: startFromOf(start),
          });
        });
    save.then((done) => {
      if (done && saved) onSaved(saved, !stream);
      else setFormError("Not saved: a receiver's settings need you to confirm it's you.");
    }, onError);
  }

  return (
    <Dialog
      title={stream ? "Edit log stream" : "Add a log stream"}
      description={
        stream
          ? `${TYPE_INFO[stream.type].label}: ${stream.name}`
          : "We send every event of this tenant's audit log to your SIEM or data lake, in order, with its hash chain so the receiver can check nothing is missing."
      }
      size="md"
      onClose={onClose}
      onSubmit={submit}
      busy={pending}
      footer={<FormActions onCancel={onClose} pending={pending} submitLabel={stream ? "Save changes" : "Add stream"} />}
    >
      <div className="space-y-6">
        <Field id="stream-name" label="Name" hint={`Up to ${MAX_NAME_LENGTH} characters: what the stream is for.`} error={errors.name}>
          {(control) => (
            <Input
              {...control}
              name="name"
              autoComplete="off"
              placeholder="Security data lake"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clear("name");
              }}
            />
          )}
        </Field>

        {stream ? null : (
          <TypePicker
            value={type}
            onChange={(next) => {
              setType(next);
              setConfigs((all) => (all[next] ? all : { ...all, [next]: initialConfig(next) }));
              show({});
            }}
          />
        )}

        <ConfigFields type={type} values={config} onChange={changeConfig} errors={errors} storedSecrets={storedSecrets} />

        <EventsPicker
          id="stream-events"
          value={events}
          onChange={(next) => {
            setEvents(next);
            clear("events");
          }}
          error={errors.events}
        />

        {stream ? null : (
          <StartFromField
            value={start}
            onChange={(next) => {
              setStart(next);
              clear("start_from");
            }}
            error={errors.start_from}
          />
        )}

        {formError ? <Alert tone="danger">{formError}</Alert> : null}
      </div>
    </Dialog>
  );
}
