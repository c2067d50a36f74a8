"use client";

import { useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/console/api";
import { docsKeys } from "@/lib/console/query-keys";
import { systemContracts } from "@/lib/http/system-contracts";

/** The OpenAPI document the server generates from its contracts (changes only with a deploy). */
export function useOpenApiDocument() {
  return useQuery({ queryKey: docsKeys.openapi(), queryFn: ({ signal }) => apiCall(systemContracts.openapi, {}, { signal }), staleTime: 300_000 });
}
