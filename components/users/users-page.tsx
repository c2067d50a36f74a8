"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCurrentUser } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { actionsColumn, DataTable } from "@/components/ui/data-list";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { useUndoable } from "@/components/ui/toast";
import { errorMessage } from "@/lib/console/api";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { pageLocally } from "@/lib/console/hooks/paged-list";
import { useHqUsers, useReinviteUser, useUpdateHqUser } from "@/lib/console/hooks/users";
import { useListUrl } from "@/lib/console/url-state";
import type { HqRole, HqUser, InviteResult } from "@/lib/console/types";
import { BackupCard } from "./backup-card";
import { InviteLinkDialog, InviteUserDialog } from "./invite-user-dialog";
import { ROLE_OPTIONS } from "./user-labels";

const PAGE_SIZE = 50;

export function UsersPage() {
  const me = useCurrentUser();
  const isAdmin = me.role === "admin";
  const router = useRouter();
  const users = useHqUsers({ enabled: isAdmin });
  const [inviting, setInviting] = useState(false);
  const { page, setPage } = useListUrl({});
  const undoable = useUndoable();
  const [reissued, setReissued] = useState<InviteResult | null>(null);
  const reinvite = useReinviteUser({ onSuccess: setReissued });

  const update = useUpdateHqUser({
    onSuccess: (_data, { id }) => {
      // my own role changed: re-read the session so the console shows what the new role may do
      if (id === me.id) router.refresh();
    },
  });

  /** Disabling signs the user out at once; Undo (or Enable) lets them sign in again. Enabling has Undo too. */
  function toggleDisabled(u: HqUser) {
    const disabling = !u.disabledAt;
    update.reset();
    void undoable({
      act: () => update.mutateAsync({ id: u.id, disabled: disabling }),
      // an invitation's link ends with the disabling: enabled again, the user needs a new one
      done: () =>
        disabling
          ? u.invitePending
            ? `Disabled ${u.email}: their invitation link no longer works.`
            : `Disabled ${u.email}: signed out, and can't sign in until enabled.`
          : u.invitePending
            ? `Enabled ${u.email}: give them a new invitation link (New link).`
            : `Enabled ${u.email}: they can sign in again.`,
      undo: () => update.mutateAsync({ id: u.id, disabled: !disabling }),
      undone: disabling ? `${u.email} is enabled again.` : `${u.email} is disabled again.`,
      failed: `Couldn't ${disabling ? "disable" : "enable"} ${u.email}`,
    });
  }

  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Users" />
        <Card>
          <EmptyState
            title="Admins only"
            description="Only HQ admins can invite users and change their roles. Ask an admin if you need a different role."
          />
        </Card>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Users"
        description="People who can sign in to this console. Admins manage everything; curators edit knowledge and review suggestions; viewers read."
        actions={<Button onClick={() => setInviting(true)}>Invite user</Button>}
      />
      <Card>
        <CardHeader title="HQ users" description={users.data ? `${users.data.length} user${users.data.length === 1 ? "" : "s"}` : undefined} />
        {update.isError && (
          <Alert tone="error" className="mx-5 mt-4">
            {errorMessage(update.error)}
          </Alert>
        )}
        {reinvite.isError && (
          <Alert tone="error" className="mx-5 mt-4">
            {errorMessage(reinvite.error)}
          </Alert>
        )}
        <DataTable
          list={pageLocally(users, page, PAGE_SIZE)}
          onPage={setPage}
          noun={["user", "users"]}
          aria-label="HQ users"
          rowProps={() => ({ "data-testid": "user-row" })}
          columns={[
            {
              id: "user",
              header: "User",
              primary: true,
              cell: (u) => (
                <>
                  <p className="font-medium text-slate-900">
                    {u.name || <span className="font-normal text-slate-500">No name yet</span>}
                    {u.id === me.id && (
                      <Badge tone="indigo" className="ml-2">
                        You
                      </Badge>
                    )}
                  </p>
                  <p className="text-xs text-slate-500">{u.email}</p>
                </>
              ),
            },
            {
              id: "role",
              header: "Role",
              cell: (u) => (
                <Select
                  aria-label={`Role of ${u.email}`}
                  value={u.role}
                  disabled={(update.isPending && update.variables?.id === u.id && update.variables.role !== undefined) || Boolean(u.disabledAt)}
                  onChange={(e) => update.mutate({ id: u.id, role: e.target.value as HqRole })}
                  options={ROLE_OPTIONS}
                  className="w-32"
                />
              ),
            },
            {
              id: "status",
              header: "Status",
              cell: (u) =>
                u.disabledAt ? <Badge tone="neutral">Disabled</Badge> : u.invitePending ? <Badge tone="amber">Invite pending</Badge> : <Badge tone="green">Active</Badge>,
            },
            {
              id: "login",
              header: "Last sign-in",
              cell: (u) => <span title={u.lastLoginAt ? formatDateTime(u.lastLoginAt) : undefined}>{formatRelative(u.lastLoginAt)}</span>,
            },
            // disabling is undone from its toast; they sign in again once enabled
            actionsColumn(
              (u: HqUser) =>
                u.id !== me.id && (
                  <>
                    {u.invitePending && !u.disabledAt && (
                      <Button
                        variant="ghost"
                        size="sm"
                        loading={reinvite.isPending && reinvite.variables?.id === u.id}
                        onClick={() => reinvite.mutate({ id: u.id })}
                        title="A new invitation link; the earlier one stops working"
                      >
                        New link
                      </Button>
                    )}
                    <Button variant="ghost" size="sm" onClick={() => toggleDisabled(u)}>
                      {u.disabledAt ? "Enable" : "Disable"}
                    </Button>
                  </>
                ),
            ),
          ]}
          empty={<EmptyState title="No users" action={<Button onClick={() => setInviting(true)}>Invite user</Button>} />}
        />
      </Card>
      <BackupCard />
      <InviteUserDialog open={inviting} onClose={() => setInviting(false)} />
      <InviteLinkDialog result={reissued} onClose={() => setReissued(null)} />
    </>
  );
}
