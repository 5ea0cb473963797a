"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";

/**
 * The highlighted row of a palette whose rows come from the server: the first row whenever a new
 * list replaces the shown one (never a row that is gone), and an Enter pressed before the answer
 * to what was typed (a pasted id, fast typing) opens that answer's first row once it arrives.
 */
export function usePaletteSelection(rows: Array<{ id: string }>, settled: boolean, choose: (id: string) => void) {
  const [value, setValue] = useState("");
  const [shown, setShown] = useState("");
  const enterPending = useRef(false);
  const ids = rows.map((row) => row.id).join(" ");
  if (ids !== shown) {
    setShown(ids);
    setValue(rows[0]?.id ?? "");
  }

  useEffect(() => {
    if (!enterPending.current || !settled) return;
    enterPending.current = false;
    const target = rows.find((row) => row.id === value) ?? rows[0];
    if (target) choose(target.id);
  }, [settled, rows, value, choose]);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== "Enter" || settled || event.nativeEvent.isComposing) return;
    event.preventDefault();
    enterPending.current = true;
  }

  return { value, setValue, onKeyDown };
}
