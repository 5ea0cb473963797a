"use client";

import { useEffect, useRef, useState } from "react";
import { MAX_SEARCH_LENGTH } from "@/server/contract/page-query";
import { SearchIcon } from "../icons";
import { Input } from "./input";

/**
 * A list's search box. Typing calls `onChange` with the trimmed text once it pauses, so a list
 * that keeps its search in the URL is not asked on every key.
 */
export function SearchBox({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div className="relative w-full sm:w-72">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-500" />
      <Input
        id={id}
        type="search"
        value={text}
        maxLength={MAX_SEARCH_LENGTH}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => onChange(next.trim()), 250);
        }}
        placeholder={placeholder}
        autoComplete="off"
        className="pl-9"
      />
    </div>
  );
}
