"use client";

import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import type { FieldErrors } from "../form-errors";
import type { ConfigValues } from "./stream-form";
import { CONFIG_FIELDS, isSecret, type ConfigField } from "./stream-types";
import type { LogStreamType } from "./types";

const TEXTAREA =
  "block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none aria-invalid:ring-red-500";

const CHECKBOX =
  "mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

interface ConfigFieldsProps {
  type: LogStreamType;
  values: ConfigValues;
  onChange: (name: string, value: string | boolean) => void;
  /** Keyed `config.<name>`. */
  errors: FieldErrors;
  /** Secrets already stored (editing): their fields say so, and blank keeps them. */
  storedSecrets: ReadonlySet<string>;
}

function hintOf(type: LogStreamType, field: ConfigField, stored: boolean): string | undefined {
  if (stored) return `Set. Leave blank to keep it, or type a new one to replace it.${field.hint ? ` ${field.hint}` : ""}`;
  if (isSecret(type, field.name)) return `${field.hint ? `${field.hint} ` : ""}Stored encrypted; never shown again.`;
  return field.hint;
}

/** The settings of one receiver type, each as the kind of control its value needs. */
export function ConfigFields({ type, values, onChange, errors, storedSecrets }: ConfigFieldsProps) {
  return (
    <div className="grid gap-x-4 gap-y-5 sm:grid-cols-2" data-testid="stream-config" data-type={type}>
      {CONFIG_FIELDS[type].map((field) => {
        const id = `stream-config-${field.name}`;
        const error = errors[`config.${field.name}`];
        const value = values[field.name];
        if (field.kind === "checkbox") {
          return (
            <div key={field.name} className="sm:col-span-2">
              <div className="flex items-start gap-2 text-sm">
                <input
                  id={id}
                  type="checkbox"
                  checked={value === true}
                  onChange={(event) => onChange(field.name, event.target.checked)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  className={CHECKBOX}
                />
                <label htmlFor={id} className="text-slate-700">
                  {field.label}
                </label>
              </div>
              {error ? (
                <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700">
                  {error}
                </p>
              ) : null}
            </div>
          );
        }
        const text = typeof value === "string" ? value : "";
        return (
          <Field
            key={field.name}
            id={id}
            label={field.optional ? `${field.label} (optional)` : field.label}
            hint={hintOf(type, field, storedSecrets.has(field.name))}
            error={error}
            className={field.half ? undefined : "sm:col-span-2"}
          >
            {(control) =>
              field.kind === "select" ? (
                <Select {...control} name={field.name} value={text} onChange={(event) => onChange(field.name, event.target.value)}>
                  {field.options?.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </Select>
              ) : field.kind === "certificates" ? (
                <textarea
                  {...control}
                  name={field.name}
                  rows={4}
                  spellCheck={false}
                  className={TEXTAREA}
                  placeholder="-----BEGIN CERTIFICATE-----"
                  value={text}
                  onChange={(event) => onChange(field.name, event.target.value)}
                />
              ) : (
                <Input
                  {...control}
                  name={field.name}
                  type={field.kind === "secret" ? "password" : field.kind === "url" ? "url" : "text"}
                  inputMode={field.kind === "port" ? "numeric" : field.kind === "url" ? "url" : undefined}
                  autoComplete={field.kind === "secret" ? "new-password" : "off"}
                  spellCheck={false}
                  placeholder={storedSecrets.has(field.name) ? "••••••••" : field.placeholder}
                  className={field.kind === "secret" || field.kind === "port" ? "font-mono" : undefined}
                  value={text}
                  onChange={(event) => onChange(field.name, event.target.value)}
                />
              )
            }
          </Field>
        );
      })}
    </div>
  );
}
