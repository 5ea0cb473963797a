"use client";

import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { isoOfUtcInput, utcInputValue } from "./filters";

interface UtcRangeFieldsProps {
  /** Prefix of the inputs' ids (`<idPrefix>-from`, `<idPrefix>-to`). */
  idPrefix: string;
  /** ISO 8601 instants, as the filters hold them ("" for none). */
  from: string;
  to: string;
  errors: { from?: string; to?: string };
  onChange: (range: { from: string } | { to: string }) => void;
}

/** The From/To pair of the audit filters, in UTC: start included, end not. */
export function UtcRangeFields({ idPrefix, from, to, errors, onChange }: UtcRangeFieldsProps) {
  return (
    <>
      <Field id={`${idPrefix}-from`} label="From (UTC)" hint="Included" error={errors.from} className="lg:col-span-3">
        {(control) => (
          <Input
            {...control}
            type="datetime-local"
            value={utcInputValue(from)}
            onChange={(e) => onChange({ from: isoOfUtcInput(e.target.value) })}
          />
        )}
      </Field>
      <Field id={`${idPrefix}-to`} label="To (UTC)" hint="Not included" error={errors.to} className="lg:col-span-3">
        {(control) => (
          <Input
            {...control}
            type="datetime-local"
            value={utcInputValue(to)}
            onChange={(e) => onChange({ to: isoOfUtcInput(e.target.value) })}
          />
        )}
      </Field>
    </>
  );
}
