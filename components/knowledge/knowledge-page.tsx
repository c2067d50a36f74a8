"use client";

import Link from "next/link";
import { useState } from "react";
import { useCanCurate } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterBar, FilterSearch } from "@/components/ui/filter-bar";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { DataTable, type Column } from "@/components/ui/data-list";
import { useIsUnsaved, useUnsavedEdits } from "@/lib/console/drafts";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useKnowledgeList, useKnowledgeTags, type KnowledgeFilters } from "@/lib/console/hooks/knowledge";
import { KNOWLEDGE_CATEGORIES, type KnowledgeCategory, type KnowledgeEntry } from "@/lib/console/knowledge-types";
import { useTypedFilter } from "@/lib/console/hooks/typed-filter";
import { oneOf, useListUrl } from "@/lib/console/url-state";
import { CategoryBadge, TagList } from "./category-badge";
import { ImportDialog } from "./import-dialog";
import { CATEGORY_OPTIONS } from "./labels";

const STATUSES = ["published", "archived", "all"] as const;

/**
 * The HQ knowledge base: the operations manual field agents query. Search is hybrid —
 * the words and the meaning of the query, weighed together — and filters narrow it by category and tag.
 * The search, the filters and the page live in the address, so a view can be shared and reloaded.
 */
export function KnowledgePage() {
  const canCurate = useCanCurate();
  const { filters: view, page, setFilters, setPage } = useListUrl({ q: "", category: "", tag: "", status: "published" });
  const [search, setSearch, typing] = useTypedFilter(view.q, (q) => setFilters({ q }));
  const category = oneOf(view.category, KNOWLEDGE_CATEGORIES, "" as KnowledgeCategory | "");
  const status = oneOf(view.status, STATUSES, "published");
  const [importing, setImporting] = useState(false);
  const q = view.q.trim();
  const filters: KnowledgeFilters = { q: q || undefined, category: category || undefined, tag: view.tag || undefined, status };
  const list = useKnowledgeList(filters, page);
  const tags = useKnowledgeTags();
  const filtered = Boolean(q || category || view.tag || status !== "published");
  // while the next search runs, the previous results are not shown under their old caption
  const searching = typing || list.isPlaceholderData;
  const answer = list.answer;
  const suggestion = answer?.mode === "search" ? answer.didYouMean : undefined;

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
          active={[category, view.tag, status !== "published"].filter(Boolean).length}
          onClear={
            filtered
              ? () => {
                  setSearch("");
                  setFilters({ q: null, category: null, tag: null, status: null });
                }
              : undefined
          }
          busy={list.isFetching && !list.isPending && "Searching"}
          primary={<FilterSearch className="w-80" value={search} onChange={setSearch} placeholder="e.g. customer wants a refund" aria-label="Search the knowledge base" />}
        >
          <label className="text-xs font-medium text-slate-600">
            Category
            <Select className="mt-1 w-48" value={category} onChange={(e) => setFilters({ category: e.target.value })} options={[{ value: "", label: "All categories" }, ...CATEGORY_OPTIONS]} />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Tag
            <Select
              className="mt-1 w-48"
              value={view.tag}
              onChange={(e) => setFilters({ tag: e.target.value })}
              options={[{ value: "", label: tags.isPending ? "Loading tags…" : "All tags" }, ...(tags.data ?? []).map((t) => ({ value: t.tag, label: `#${t.tag} (${t.count})` }))]}
            />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Status
            <Select
              className="mt-1 w-36"
              value={status}
              onChange={(e) => setFilters({ status: e.target.value })}
              options={[
                { value: "published", label: "Published" },
                { value: "archived", label: "Archived" },
                { value: "all", label: "All" },
              ]}
            />
          </label>
        </FilterBar>
      </form>

      {canCurate && <UnsavedEntries />}

      {answer?.mode === "search" && !answer.semantic && answer.semanticSkipped !== "unknown_words" && (
        <Alert tone="warning" className="mb-4">
          The embedding provider is unavailable, so this search matched words only, not meaning.
        </Alert>
      )}

      {!searching && answer?.mode === "search" && answer.didYouMean && (
        <p className="mb-3 text-sm text-slate-700" data-testid="did-you-mean">
          {answer.showingDidYouMean ? (
            <>
              Nothing matched “{answer.query}”, so these are the matches for <strong>“{answer.didYouMean}”</strong>.
            </>
          ) : (
            <>
              Did you mean{" "}
              <button type="button" className="font-medium text-indigo-700 underline" onClick={() => setSearch(suggestion ?? "")}>
                {answer.didYouMean}
              </button>
              ?
            </>
          )}
        </p>
      )}

      <Card>
        <DataTable
          list={searching && q ? { ...list, isPending: true } : list}
          onPage={setPage}
          noun={["entry", "entries"]}
          loadingLabel={q ? "Searching…" : "Loading the knowledge base…"}
          aria-label="Knowledge entries"
          rowProps={() => ({ "data-testid": "knowledge-row" })}
          columns={answer?.mode === "search" ? [...COLUMNS, ...SEARCH_COLUMNS] : COLUMNS}
          caption={
            <div className="border-b border-slate-200 px-5 py-2.5 text-xs text-slate-500" aria-live="polite">
              {answer?.mode === "search"
                ? `${answer.entries.length} match${answer.entries.length === 1 ? "" : "es"} for “${answer.showingDidYouMean ? answer.didYouMean : answer.query}”, best first. The score weighs the words (60%) and the meaning (40%); matches scoring under ${Math.round((answer.scoreCutoff ?? 0) * 100)}% of the best are left out as weak.`
                : `${list.total ?? 0} entr${list.total === 1 ? "y" : "ies"}, most recently edited first`}
            </div>
          }
          empty={
            <EmptyState
              title={answer?.mode === "search" ? "No matching entries" : filtered ? "No entry matches these filters" : "The knowledge base is empty"}
              description={
                answer?.mode === "search"
                  ? `Nothing in the knowledge base is close enough to “${answer.query}”. Try other words, or clear the filters.`
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
          }
        />
      </Card>

      {canCurate && <ImportDialog open={importing} onClose={() => setImporting(false)} />}
    </>
  );
}

const COLUMNS: Column<KnowledgeEntry>[] = [
  {
    id: "title",
    header: "Title",
    primary: true,
    className: "min-w-64",
    cell: (e) => (
      <>
        <Link href={`/knowledge/${e.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
          {e.title}
        </Link>
        {e.status === "archived" && (
          <Badge tone="neutral" className="ml-2">
            Archived
          </Badge>
        )}
        <UnsavedBadge id={e.id} />
      </>
    ),
  },
  { id: "category", header: "Category", cell: (e) => <CategoryBadge category={e.category} />, className: "whitespace-nowrap" },
  // a few tags fit beside the title; the rest are counted, so long titles keep the width
  { id: "tags", header: "Tags", cell: (e) => <TagList tags={e.tags} max={2} />, className: "w-44 max-w-44" },
  { id: "version", header: "Version", cell: (e) => `v${e.version}`, className: "text-right tabular-nums", headerClassName: "text-right" },
  {
    id: "edited",
    header: "Last edited",
    className: "text-xs whitespace-nowrap",
    cell: (e) => (
      <>
        <span className="text-slate-700">{e.updatedBy}</span>
        <span className="block text-slate-500" title={formatDateTime(e.updatedAt)}>
          {formatRelative(e.updatedAt)}
        </span>
      </>
    ),
  },
  {
    id: "used",
    header: "Used by agents",
    title: "How often agents were served this entry",
    className: "text-right tabular-nums",
    headerClassName: "text-right",
    cell: (e) => <span title={e.lastAccessedAt ? `Last served ${formatDateTime(e.lastAccessedAt)}` : "Never served to an agent"}>{e.accessedCount}</span>,
  },
];

/**
 * The knowledge edits of this browser tab that are not saved yet (kept as drafts), each linking back
 * to its editor: leaving an editor keeps its draft, and this is where a curator finds it again.
 */
function UnsavedEntries() {
  const edits = useUnsavedEdits("knowledge.");
  if (!edits.length) return null;
  return (
    <Alert tone="warning" className="mb-4" title={edits.length === 1 ? "An edit is not saved yet" : `${edits.length} edits are not saved yet`}>
      <p>
        Kept as drafts in this browser tab until you save or discard them:{" "}
        {edits.map((edit, i) => (
          <span key={edit.key}>
            {i > 0 && (i === edits.length - 1 ? " and " : ", ")}
            <Link href={edit.href} className="font-medium underline">
              {edit.label}
            </Link>
          </span>
        ))}
        .
      </p>
    </Alert>
  );
}

/** Marks an entry whose edit waits unsaved in this browser tab. */
function UnsavedBadge({ id }: { id: string }) {
  if (!useIsUnsaved(`knowledge.${id}`)) return null;
  return (
    <Badge tone="amber" className="ml-2">
      Unsaved edit
    </Badge>
  );
}

const SEARCH_COLUMNS: Column<KnowledgeEntry>[] = [
  {
    id: "matched",
    header: "Matched by",
    className: "text-xs whitespace-nowrap text-slate-500",
    cell: (e) => [e.fullTextRank != null && "words", e.semanticRank != null && "meaning"].filter(Boolean).join(" + ") || "—",
  },
  {
    id: "score",
    header: "Score",
    title: "Relevance to the search (higher is closer)",
    className: "text-right text-xs whitespace-nowrap tabular-nums text-slate-700",
    headerClassName: "text-right",
    cell: (e) => <span data-testid="knowledge-score">{typeof e.score === "number" ? formatScore(e.score) : "—"}</span>,
  },
];

/** Scores (0–1, weighted BM25 and similarity) need three decimals to tell neighbours apart. */
function formatScore(score: number): string {
  return Math.abs(score) >= 1 ? score.toFixed(2) : score.toFixed(3);
}
