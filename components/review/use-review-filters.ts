"use client";

import { SUGGESTION_STATUSES, type SuggestionStatus } from "@/lib/console/review-types";
import { oneOf, useListUrl } from "@/lib/console/url-state";

export type VerdictFilter = "" | "approve" | "review" | "refuse";
const VERDICT_VALUES = ["", "approve", "review", "refuse"] as const;

export const VERDICTS: { value: VerdictFilter; label: string }[] = [
  { value: "", label: "Any verdict" },
  { value: "approve", label: "Passes every rule" },
  { value: "review", label: "Needs a person" },
  { value: "refuse", label: "Breaks a rule" },
];

/** The review queue's filters and page, in the address: `/review?status=approved&client=…&verdict=…&q=…&page=2`. */
export function useReviewFilters() {
  const { filters, page, setFilters, setPage } = useListUrl({ status: "pending", client: "", verdict: "", q: "" });
  const status: SuggestionStatus = oneOf(filters.status, SUGGESTION_STATUSES, "pending");
  const verdict: VerdictFilter = status === "pending" ? oneOf(filters.verdict, VERDICT_VALUES, "") : "";
  return {
    status,
    clientId: filters.client,
    verdict,
    q: filters.q,
    page,
    setFilters,
    setPage,
    filtered: Boolean(filters.client || verdict || filters.q),
    clear: () => setFilters({ client: null, verdict: null, q: null }),
  };
}
