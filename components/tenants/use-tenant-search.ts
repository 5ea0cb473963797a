"use client";

import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { MAX_SEARCH_LENGTH } from "@/server/contract/page-query";
import { useTRPC } from "../trpc";

/** How long typing must pause before the server is asked. */
const DEBOUNCE_MS = 150;

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Tenants matching what has been typed (GET /tenants?search=: name substring or exact id), the
 * newest first; the previous answer stays on screen while the next one loads.
 */
export function useTenantSearch(
  term: string,
  { pageSize = 8, enabled = true, advisory = false }: { pageSize?: number; enabled?: boolean; advisory?: boolean } = {},
) {
  const trpc = useTRPC();
  const search = useDebounced(term.trim().slice(0, MAX_SEARCH_LENGTH));
  const query = useQuery({
    ...trpc.tenants.list.queryOptions({ page_size: pageSize, search: search || undefined }),
    placeholderData: keepPreviousData,
    enabled,
    // A hint beside a form: a session found gone here waits for the form's own request to say so.
    meta: advisory ? { advisory: true } : undefined,
  });
  return { ...query, search, settled: search === term.trim().slice(0, MAX_SEARCH_LENGTH) && !query.isFetching };
}
