"use client";

import { useRef, type KeyboardEvent } from "react";
import type { FieldControlProps } from "../ui/field";
import { cx } from "../ui/cx";
import { addDomains, splitDomains } from "./provider-form";

interface DomainsInputProps {
  control: FieldControlProps;
  domains: string[];
  /** What is typed after the last separator, not yet a chip. */
  draft: string;
  onChange: (domains: string[], draft: string) => void;
  /** Positions of domains to show as refused. */
  invalid?: number[];
  disabled?: boolean;
}

/**
 * Email domains as chips: typing a comma or a space (or pasting a list) turns what comes before
 * it into chips, Enter or leaving the field turns the rest, Backspace in an empty field takes the
 * last chip back for editing.
 */
export function DomainsInput({ control, domains, draft, onChange, invalid = [], disabled }: DomainsInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);

  function type(text: string) {
    const parts = text.split(/[\s,;]+/);
    const rest = parts.pop() ?? "";
    onChange(addDomains(domains, splitDomains(parts.join(" "))), rest);
  }

  function commitDraft() {
    if (draft.trim()) onChange(addDomains(domains, splitDomains(draft)), "");
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" && draft.trim()) {
      event.preventDefault();
      commitDraft();
    } else if (event.key === "Backspace" && !draft && domains.length) {
      event.preventDefault();
      onChange(domains.slice(0, -1), domains[domains.length - 1]!);
    }
  }

  return (
    <div
      onClick={() => inputRef.current?.focus()}
      className={cx(
        "flex min-h-9 w-full cursor-text flex-wrap items-center gap-1.5 rounded-md bg-white px-2 py-1.5 shadow-sm ring-1 ring-inset",
        "focus-within:ring-2 focus-within:ring-indigo-600",
        control["aria-invalid"] ? "ring-red-500 focus-within:ring-red-600" : "ring-slate-300",
        disabled && "cursor-not-allowed bg-slate-50",
      )}
    >
      {domains.length ? (
        <ul aria-label="Added domains" className="flex max-w-full flex-wrap gap-1.5">
          {domains.map((domain, index) => (
            <li
              key={domain}
              data-testid="domain-chip"
              className={cx(
                "inline-flex max-w-full items-center gap-0.5 rounded py-0.5 pr-0.5 pl-2 text-xs font-medium ring-1 ring-inset",
                invalid.includes(index) ? "bg-red-50 text-red-800 ring-red-300" : "bg-slate-100 text-slate-800 ring-slate-300",
              )}
            >
              <span className="truncate">{domain}</span>
              <button
                type="button"
                disabled={disabled}
                onClick={(event) => {
                  event.stopPropagation();
                  onChange(
                    domains.filter((d) => d !== domain),
                    draft,
                  );
                  inputRef.current?.focus();
                }}
                aria-label={`Remove ${domain}`}
                className="rounded p-0.5 text-slate-500 hover:bg-slate-200 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                <svg viewBox="0 0 20 20" fill="currentColor" className="size-3.5" aria-hidden="true">
                  <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
                </svg>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        {...control}
        ref={inputRef}
        name="domains"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        disabled={disabled}
        value={draft}
        onChange={(event) => type(event.target.value)}
        onKeyDown={keyDown}
        onBlur={commitDraft}
        placeholder={domains.length ? "" : "example.com, example.org"}
        className="h-6 min-w-32 flex-1 border-0 bg-transparent px-1 text-sm text-slate-900 placeholder:text-slate-500 focus:ring-0 focus:outline-none disabled:cursor-not-allowed"
      />
    </div>
  );
}
