"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useKnowledgeList, useKnowledgeTags, type KnowledgeFilters } from "@/lib/console/hooks/knowledge";
import type { KnowledgeCategory, KnowledgeEntry, KnowledgeStatus } from "@/lib/console/knowledge-types";
import { CategoryBadge, TagList } from "./category-badge";
import { ImportDialog } from "./import-dialog";
import { CATEGORY_OPTIONS } from "./labels";
import { useDebounced } from "@/components/ui/use-debounced";

/**
 * The HQ knowledge base: the operations manual field agents query. Search is hybrid —
 * the words and the meaning of the query, weighed together — and filters narrow it by category and tag.
 */
export function KnowledgePage() {
  const canCurate = useCanCurate();
  const [search, setSearch] = useState("");
  // the search lives in the address (?q=), so it can be shared, reloaded and gone back to
  useEffect(() => {
    const fromUrl = new URLSearchParams(window.location.search).get("q");
    if (fromUrl) setSearch(fromUrl);
  }, []);
  const [category, setCategory] = useState("");
  const [tag, setTag] = useState("");
  const [status, setStatus] = useState<KnowledgeStatus | "all">("published");
  const [importing, setImporting] = useState(false);
  const q = useDebounced(search.trim(), 300);
  const filters: KnowledgeFilters = { q: q || undefined, category: (category || undefined) as KnowledgeCategory | undefined, tag: tag || undefined, status };
  const list = useKnowledgeList(filters);
  const tags = useKnowledgeTags();
  const filtered = Boolean(q || category || tag || status !== "published");
  useEffect(() => {
    const url = new URL(window.location.href);
    if (q) url.searchParams.set("q", q);
    else url.searchParams.delete("q");
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
  }, [q]);
  // while the next search runs, the previous results are not shown under their old caption
  const searching = search.trim() !== q || list.isPlaceholderData;
  const suggestion = list.data?.mode === "search" ? list.data.didYouMean : undefined;

  return (
    <>
      <PageHeader
        title="Knowledge base"
        description="Procedures, best practices, templates, skill docs, escalation rules and tool guides that every agent can search. Field agents read it; curators keep it current."
        actions={
          canCurate && (
            <>
              <Button variant="secondary" onClick={() => setImporting(true)}>
                Import markdown
              </Button>
              <Link href="/knowledge/new" className={buttonClasses()}>
                New entry
              </Link>
            </>
          )
        }
      />

      <form role="search" aria-label="Search the knowledge base" onSubmit={(e) => e.preventDefault()} noValidate>
        <FilterBar
          active={[category, tag, status !== "published"].filter(Boolean).length}
          trailing={
            <>
              {filtered && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="mb-0.5"
                  onClick={() => {
                    setSearch("");
                    setCategory("");
                    setTag("");
                    setStatus("published");
                  }}
                >
                  Clear
                </Button>
              )}
              {list.isFetching && !list.isPending && <Spinner className="mb-2.5 text-slate-500" label="Searching" />}
            </>
          }
          primary={
            <label className="text-xs font-medium text-slate-600">
              Search
              <Input
                className="mt-1 w-80"
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                placeholder="e.g. customer wants a refund"
                aria-label="Search the knowledge base"
              />
            </label>
          }
        >
          <label className="text-xs font-medium text-slate-600">
            Category
            <Select className="mt-1 w-44" value={category} onChange={(e) => setCategory(e.target.value)} options={[{ value: "", label: "All categories" }, ...CATEGORY_OPTIONS]} />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Tag
            <Select
              className="mt-1 w-44"
              value={tag}
              onChange={(e) => setTag(e.target.value)}
              options={[{ value: "", label: tags.isPending ? "Loading tags…" : "All tags" }, ...(tags.data ?? []).map((t) => ({ value: t.tag, label: `#${t.tag} (${t.count})` }))]}
            />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Status
            <Select
              className="mt-1 w-36"
              value={status}
              onChange={(e) => setStatus(e.target.value as KnowledgeStatus | "all")}
              options={[
                { value: "published", label: "Published" },
                { value: "archived", label: "Archived" },
                { value: "all", label: "All" },
              ]}
            />
          </label>
        </FilterBar>
      </form>

      {list.data?.mode === "search" && !list.data.semantic && (
        <Alert tone="warning" className="mb-4">
          The embedding provider is unavailable, so this search matched words only, not meaning.
        </Alert>
      )}

      {!searching && list.data?.mode === "search" && list.data.didYouMean && (
        <p className="mb-3 text-sm text-slate-700" data-testid="did-you-mean">
          {list.data.showingDidYouMean ? (
            <>
              Nothing matched “{list.data.query}”, so these are the matches for <strong>“{list.data.didYouMean}”</strong>.
            </>
          ) : (
            <>
              Did you mean{" "}
              <button type="button" className="font-medium text-indigo-700 underline" onClick={() => setSearch(suggestion ?? "")}>
                {list.data.didYouMean}
              </button>
              ?
            </>
          )}
        </p>
      )}

      <Card>
        {list.isPending || (searching && q) ? (
          <LoadingState label={q ? "Searching…" : "Loading the knowledge base…"} rows={6} />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />
        ) : list.data.entries.length === 0 ? (
          <EmptyState
            title={list.data.mode === "search" ? "No matching entries" : filtered ? "No entry matches these filters" : "The knowledge base is empty"}
            description={
              list.data.mode === "search"
                ? `Nothing in the knowledge base is close enough to “${list.data.query}”. Try other words, or clear the filters.`
                : filtered
                  ? "Try another category, tag or status, or clear the filters."
                  : "Write the first procedure, or import a folder of markdown files."
            }
            action={
              !filtered &&
              canCurate && (
                <Link href="/knowledge/new" className={buttonClasses()}>
                  New entry
                </Link>
              )
            }
          />
        ) : (
          <>
            <div className="border-b border-slate-200 px-5 py-2.5 text-xs text-slate-500" aria-live="polite">
              {list.data.mode === "search"
                ? `${list.data.entries.length} match${list.data.entries.length === 1 ? "" : "es"} for “${list.data.showingDidYouMean ? list.data.didYouMean : list.data.query}”, best first. The score weighs the words (60%) and the meaning (40%); matches scoring under ${Math.round((list.data.scoreCutoff ?? 0) * 100)}% of the best are left out as weak.`
                : `${list.data.total} entr${list.data.total === 1 ? "y" : "ies"}, most recently edited first`}
            </div>
            <KnowledgeTable entries={list.data.entries} search={list.data.mode === "search"} />
          </>
        )}
      </Card>

      {canCurate && <ImportDialog open={importing} onClose={() => setImporting(false)} />}
    </>
  );
}

function KnowledgeTable({ entries, search }: { entries: KnowledgeEntry[]; search: boolean }) {
  return (
    <Table cards>
      <THead>
        <tr>
          <Th>Title</Th>
          <Th>Category</Th>
          <Th>Tags</Th>
          <Th className="text-right">Version</Th>
          <Th>Last edited</Th>
          <Th className="text-right" title="How often agents were served this entry">
            Used by agents
          </Th>
          {search && <Th>Matched by</Th>}
          {search && (
            <Th className="text-right" title="Relevance to the search (higher is closer)">
              Score
            </Th>
          )}
        </tr>
      </THead>
      <TBody>
        {entries.map((e) => (
          <Tr key={e.id} data-testid="knowledge-row">
            <Td className="max-w-md" primary>
              <Link href={`/knowledge/${e.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
                {e.title}
              </Link>
              {e.status === "archived" && (
                <Badge tone="neutral" className="ml-2">
                  Archived
                </Badge>
              )}
            </Td>
            <Td label="Category">
              <CategoryBadge category={e.category} />
            </Td>
            <Td label="Tags">
              <TagList tags={e.tags} />
            </Td>
            <Td className="text-right tabular-nums" label="Version">
              v{e.version}
            </Td>
            <Td className="text-xs whitespace-nowrap" label="Last edited">
              <span className="text-slate-700">{e.updatedBy}</span>
              <span className="block text-slate-500" title={formatDateTime(e.updatedAt)}>
                {formatRelative(e.updatedAt)}
              </span>
            </Td>
            <Td className="text-right tabular-nums" label="Used by agents" title={e.lastAccessedAt ? `Last served ${formatDateTime(e.lastAccessedAt)}` : "Never served to an agent"}>
              {e.accessedCount}
            </Td>
            {search && (
              <Td className="text-xs whitespace-nowrap text-slate-500" label="Matched by">
                {[e.fullTextRank != null && "words", e.semanticRank != null && "meaning"].filter(Boolean).join(" + ") || "—"}
              </Td>
            )}
            {search && (
              <Td className="text-right text-xs whitespace-nowrap tabular-nums text-slate-700" label="Score" data-testid="knowledge-score">
                {typeof e.score === "number" ? formatScore(e.score) : "—"}
              </Td>
            )}
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** Scores (0–1, weighted BM25 and similarity) need three decimals to tell neighbours apart. */
function formatScore(score: number): string {
  return Math.abs(score) >= 1 ? score.toFixed(2) : score.toFixed(3);
}
