import type { ComponentProps, ReactNode } from "react";
import { cx } from "./cx";

interface CheckboxProps extends Omit<ComponentProps<"input">, "type"> {
  id: string;
  label: ReactNode;
  description?: ReactNode;
}

/** A checkbox with its label beside it and an optional line of explanation under the label. */
export function Checkbox({ id, label, description, className, ...props }: CheckboxProps) {
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className={cx("flex gap-3", className)}>
      <input
        id={id}
        type="checkbox"
        aria-describedby={descriptionId}
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        {...props}
      />
      <div className="text-sm">
        <label htmlFor={id} className="font-medium text-slate-700">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-slate-600">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
