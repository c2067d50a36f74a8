"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { searchKeys } from "@/lib/console/query-keys";
import { searchContracts } from "@/lib/search/contracts";

/** What holds a name or title the palette was typed (nothing until something is typed). */
export function useJumpSearch(q: string, limit = 5) {
  return useQuery({
    queryKey: searchKeys.search(q),
    queryFn: ({ signal }) => apiCall(searchContracts.search, { query: { q, limit } }, { signal }),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
