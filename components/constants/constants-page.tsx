"use client";

import { useState, type ReactNode } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { actionsColumn, DataTable, type Column } from "@/components/ui/data-list";
import { useUndoable } from "@/components/ui/toast";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useDeleteConstant, useLockedConstants, useRecreateConstant } from "@/lib/console/hooks/constants";
import { pageRows } from "@/lib/console/hooks/paged-list";
import { CONSTANT_CATEGORIES, type LockedConstant } from "@/lib/console/types";
import { useListUrl } from "@/lib/console/url-state";
import { ConstantDialog } from "./constant-dialog";
import { CATEGORY_HINT, CATEGORY_LABEL } from "./constant-labels";

const PAGE_SIZE = 50;

export function ConstantsPage() {
  const isAdmin = useIsAdmin();
  const constants = useLockedConstants();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<LockedConstant | null>(null);
  const remove = useDeleteConstant();
  const recreate = useRecreateConstant();
  const undoable = useUndoable();

  /** Deleting acts at once; Undo in the toast puts the constant back as it was. */
  function deleteConstant(c: LockedConstant) {
    void undoable({
      act: () => remove.mutateAsync(c.key),
      done: () => `Deleted “${c.label}”: agents no longer receive it.`,
      undo: () => recreate.mutateAsync({ key: c.key, label: c.label, value: c.value, category: c.category, description: c.description ?? "" }),
      undone: `“${c.label}” is back.`,
      failed: `Couldn't delete “${c.label}”`,
    });
  }

  const keys = constants.data?.map((c) => c.key) ?? [];
  const groups = CONSTANT_CATEGORIES.map((category) => ({
    category,
    items: constants.data?.filter((c) => c.category === category) ?? [],
  })).filter((g) => g.items.length > 0);

  return (
    <>
      <PageHeader
        title="Locked constants"
        description="Prices, guarantees, compliance rules, escalation numbers and booking links. Agents receive them verbatim in their context and can never change them."
        actions={isAdmin && <Button onClick={() => setAdding(true)}>Add constant</Button>}
      />
      {!isAdmin && (
        <Alert tone="info" className="mb-6" title="Read-only">
          Only HQ admins can change locked constants. Agents can only read them.
        </Alert>
      )}
      {constants.isPending ? (
        <Card>
          <LoadingState label="Loading locked constants…" rows={6} />
        </Card>
      ) : constants.isError ? (
        <Card>
          <ErrorState error={constants.error} onRetry={() => constants.refetch()} retrying={constants.isFetching} />
        </Card>
      ) : groups.length === 0 ? (
        <Card>
          <EmptyState
            title="No locked constants"
            description="Add the prices, guarantees and rules that agents must quote exactly."
            action={isAdmin && <Button onClick={() => setAdding(true)}>Add constant</Button>}
          />
        </Card>
      ) : (
        <div className="space-y-6">
          {groups.map(({ category, items }) => (
            <ConstantGroup
              key={category}
              category={category}
              items={items}
              actions={
                isAdmin
                  ? (c) => (
                      <div className="flex justify-end gap-1">
                        <Button variant="ghost" size="sm" onClick={() => setEditing(c)} aria-label={`Edit ${c.label}`}>
                          Edit
                        </Button>
                        <Button variant="danger-ghost" size="sm" onClick={() => deleteConstant(c)} aria-label={`Delete ${c.label}`}>
                          Delete
                        </Button>
                      </div>
                    )
                  : undefined
              }
            />
          ))}
        </div>
      )}
      {isAdmin && (
        <>
          <ConstantDialog open={adding} onClose={() => setAdding(false)} existingKeys={keys} />
          <ConstantDialog open={editing !== null} onClose={() => setEditing(null)} constant={editing ?? undefined} existingKeys={keys} />
        </>
      )}
    </>
  );
}

/** One category's constants (its own page in the address when it holds more than a page). */
function ConstantGroup({
  category,
  items,
  actions,
}: {
  category: (typeof CONSTANT_CATEGORIES)[number];
  items: LockedConstant[];
  actions?: (c: LockedConstant) => ReactNode;
}) {
  const view = useListUrl({}, `${category}Page`);
  const columns: Column<LockedConstant>[] = [
    {
      id: "label",
      header: "Label",
      primary: true,
      headerClassName: "w-1/4",
      className: "align-top",
      cell: (c) => (
        <>
          <p className="font-medium text-slate-900">{c.label}</p>
          <code className="font-mono text-xs break-all text-slate-500">{c.key}</code>
        </>
      ),
    },
    {
      id: "value",
      header: "Value",
      className: "align-top",
      cell: (c) => (
        <>
          <p className="break-words whitespace-pre-wrap text-slate-900">{c.value}</p>
          {c.description && <p className="mt-1 text-xs text-slate-500">{c.description}</p>}
        </>
      ),
    },
    {
      id: "updated",
      header: "Updated",
      headerClassName: "w-44",
      className: "align-top text-xs text-slate-500",
      cell: (c) => (
        <>
          <span title={formatDateTime(c.updatedAt)}>{formatRelative(c.updatedAt)}</span>
          {c.updatedByName && <span className="block">by {c.updatedByName}</span>}
        </>
      ),
    },
    ...(actions ? [{ ...actionsColumn(actions), headerClassName: "w-36 text-right", className: "text-right align-top" }] : []),
  ];
  return (
    <Card data-testid={`constants-${category}`}>
      <CardHeader title={CATEGORY_LABEL[category]} description={CATEGORY_HINT[category]} />
      <DataTable
        list={pageRows(items, view.page, PAGE_SIZE)}
        onPage={view.setPage}
        noun={["constant", "constants"]}
        aria-label={CATEGORY_LABEL[category]}
        rowKey={(c) => c.key}
        columns={columns}
        className="[&_table]:table-fixed"
        empty={null}
      />
    </Card>
  );
}
