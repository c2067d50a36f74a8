"use client";

import { useCanCurate } from "@/components/shell/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { Select } from "@/components/ui/select";
import { useUndoable } from "@/components/ui/toast";
import { cn } from "@/lib/console/cn";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useKnowledgeVersions, useRestoreKnowledge } from "@/lib/console/hooks/knowledge";
import type { KnowledgeEntry } from "@/lib/console/knowledge-types";
import { useUrlState } from "@/lib/console/url-state";
import { VersionDiff } from "./version-diff";

/**
 * Every version of an entry, newest first. Choosing one shows what it changed (against the version
 * before it, or any other); an earlier version can be restored, which saves it as a new version so
 * nothing is ever lost (and Undo restores the one that was current the same way).
 */
export function VersionHistory({ entry }: { entry: KnowledgeEntry }) {
  const canCurate = useCanCurate();
  const versions = useKnowledgeVersions(entry.id);
  const restore = useRestoreKnowledge(entry.id);
  // the version shown and the one it is compared with are in the address: /knowledge/<id>?tab=history&v=3&against=1
  const [view, setView] = useUrlState({ v: "", against: "" });
  const selected = view.v ? Number(view.v) : null;
  const base = view.against ? Number(view.against) : null;
  const undoable = useUndoable();

  /** A restore saves the old version as a new one; Undo restores the version that was current, as one more. */
  function restoreShown(version: number) {
    void undoable({
      act: () => restore.mutateAsync({ version, expectedVersion: entry.version }),
      done: (res) => `Version ${res.restoredFrom} restored as version ${res.entry.version}.`,
      undo: (res) => restore.mutateAsync({ version: entry.version, expectedVersion: res.entry.version }),
      undone: `Version ${entry.version} is current again, as a new version.`,
      failed: `Couldn't restore version ${version}`,
    });
    setView({ v: null, against: null });
  }

  if (versions.isPending) return <LoadingState label="Loading the history…" rows={3} />;
  if (versions.isError) return <ErrorState error={versions.error} onRetry={() => versions.refetch()} retrying={versions.isFetching} />;

  const all = versions.data;
  const newestFirst = [...all].reverse();
  const shown = all.find((v) => v.version === selected) ?? all[all.length - 1]!;
  const earlier = all.filter((v) => v.version < shown.version);
  const against = all.find((v) => v.version === base && v.version < shown.version) ?? earlier[earlier.length - 1] ?? null;

  return (
    <div className="grid gap-6 lg:grid-cols-[17rem_1fr]">
      <nav aria-label="Versions">
        <ol className="space-y-1" data-testid="knowledge-versions">
          {newestFirst.map((v) => (
            <li key={v.version}>
              <button
                type="button"
                aria-pressed={v.version === shown.version}
                onClick={() => setView({ v: v.version, against: null }, { push: true })}
                className={cn(
                  "w-full rounded-md px-3 py-2 text-left text-sm transition-colors",
                  v.version === shown.version ? "bg-indigo-50 ring-1 ring-indigo-200" : "hover:bg-slate-50",
                )}
              >
                <span className="flex items-center gap-2 font-medium text-slate-900">
                  Version {v.version}
                  {v.current && <Badge tone="indigo">Current</Badge>}
                  {v.status === "archived" && <Badge>Archived</Badge>}
                </span>
                {/* slate-600: slate-500 on the chosen version's indigo tint falls short of 4.5:1 */}
                <span className="mt-0.5 block text-xs text-slate-600">
                  {v.editedBy} · <span title={formatDateTime(v.editedAt)}>{formatRelative(v.editedAt)}</span>
                </span>
              </button>
            </li>
          ))}
        </ol>
      </nav>

      <section aria-label={`Version ${shown.version}`} className="min-w-0">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="text-sm font-semibold text-slate-900">
              Version {shown.version}
              {shown.current ? " (current)" : ""}
            </h2>
            <p className="text-xs text-slate-500">
              Saved by {shown.editedBy} on {formatDateTime(shown.editedAt)}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {earlier.length > 0 && (
              <label className="flex items-center gap-2 text-xs text-slate-600">
                Compared with
                <Select
                  className="w-36"
                  value={String(against?.version ?? "")}
                  onChange={(e) => setView({ against: e.target.value })}
                  options={[...earlier].reverse().map((v) => ({ value: String(v.version), label: `Version ${v.version}` }))}
                />
              </label>
            )}
            {canCurate && !shown.current && (
              <Button size="sm" variant="secondary" loading={restore.isPending} onClick={() => restoreShown(shown.version)}>
                Restore version {shown.version}
              </Button>
            )}
          </div>
        </div>

        {!against && <p className="mb-3 text-sm text-slate-500">The first version: everything in it was added.</p>}
        <VersionDiff before={against} after={shown} />
      </section>

    </div>
  );
}
