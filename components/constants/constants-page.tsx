"use client";

import { useState } from "react";
import { useIsAdmin } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useDeleteConstant, useLockedConstants } from "@/lib/console/hooks/constants";
import { CONSTANT_CATEGORIES, type LockedConstant } from "@/lib/console/types";
import { ConstantDialog } from "./constant-dialog";
import { CATEGORY_HINT, CATEGORY_LABEL } from "./constant-labels";

export function ConstantsPage() {
  const isAdmin = useIsAdmin();
  const constants = useLockedConstants();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<LockedConstant | null>(null);
  const [deleting, setDeleting] = useState<LockedConstant | null>(null);

  const remove = useDeleteConstant();

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
            <Card key={category} data-testid={`constants-${category}`}>
              <CardHeader title={CATEGORY_LABEL[category]} description={CATEGORY_HINT[category]} />
              <Table cards className="table-fixed">
                <THead>
                  <tr>
                    <Th className="w-1/4">Label</Th>
                    <Th>Value</Th>
                    <Th className="w-44">Updated</Th>
                    {isAdmin && (
                      <Th className="w-36 text-right">
                        <span className="sr-only">Actions</span>
                      </Th>
                    )}
                  </tr>
                </THead>
                <TBody>
                  {items.map((c) => (
                    <Tr key={c.key}>
                      <Td primary className="align-top">
                        <p className="font-medium text-slate-900">{c.label}</p>
                        <code className="font-mono text-xs break-all text-slate-500">{c.key}</code>
                      </Td>
                      <Td label="Value" className="align-top">
                        <p className="break-words whitespace-pre-wrap text-slate-900">{c.value}</p>
                        {c.description && <p className="mt-1 text-xs text-slate-500">{c.description}</p>}
                      </Td>
                      <Td label="Updated" className="align-top text-xs text-slate-500">
                        <span title={formatDateTime(c.updatedAt)}>{formatRelative(c.updatedAt)}</span>
                        {c.updatedByName && <span className="block">by {c.updatedByName}</span>}
                      </Td>
                      {isAdmin && (
                        <Td className="text-right align-top">
                          <div className="flex justify-end gap-1">
                            <Button variant="ghost" size="sm" onClick={() => setEditing(c)} aria-label={`Edit ${c.label}`}>
                              Edit
                            </Button>
                            <Button
                              variant="danger-ghost"
                              size="sm"
                              onClick={() => setDeleting(c)}
                              aria-label={`Delete ${c.label}`}
                            >
                              Delete
                            </Button>
                          </div>
                        </Td>
                      )}
                    </Tr>
                  ))}
                </TBody>
              </Table>
            </Card>
          ))}
        </div>
      )}
      {isAdmin && (
        <>
          <ConstantDialog open={adding} onClose={() => setAdding(false)} existingKeys={keys} />
          <ConstantDialog open={editing !== null} onClose={() => setEditing(null)} constant={editing ?? undefined} existingKeys={keys} />
          <ConfirmDialog
            open={deleting !== null}
            onClose={() => setDeleting(null)}
            title={`Delete “${deleting?.label ?? ""}”?`}
            description="Agents will no longer receive this constant in their context. The change is recorded in the audit log."
            confirmLabel="Delete constant"
            onConfirm={() => deleting && remove.mutateAsync(deleting.key)}
          />
        </>
      )}
    </>
  );
}
