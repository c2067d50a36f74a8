"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCurrentUser } from "@/components/shell/current-user";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { errorMessage } from "@/lib/console/api";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import { useHqUsers, useUpdateHqUser } from "@/lib/console/hooks/users";
import type { HqRole, HqUser } from "@/lib/console/types";
import { BackupCard } from "./backup-card";
import { InviteUserDialog } from "./invite-user-dialog";
import { ROLE_OPTIONS } from "./user-labels";

export function UsersPage() {
  const me = useCurrentUser();
  const isAdmin = me.role === "admin";
  const router = useRouter();
  const users = useHqUsers({ enabled: isAdmin });
  const [inviting, setInviting] = useState(false);
  const [toggling, setToggling] = useState<HqUser | null>(null);

  const update = useUpdateHqUser({
    onSuccess: (_data, { id }) => {
      // my own role changed: re-read the session so the console shows what the new role may do
      if (id === me.id) router.refresh();
    },
  });

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
        {update.isError && !toggling && (
          <Alert tone="error" className="mx-5 mt-4">
            {errorMessage(update.error)}
          </Alert>
        )}
        {users.isPending ? (
          <LoadingState label="Loading users…" rows={3} />
        ) : users.isError ? (
          <ErrorState error={users.error} onRetry={() => users.refetch()} retrying={users.isFetching} />
        ) : users.data.length === 0 ? (
          <EmptyState title="No users" action={<Button onClick={() => setInviting(true)}>Invite user</Button>} />
        ) : (
          <Table cards>
            <THead>
              <tr>
                <Th>User</Th>
                <Th>Role</Th>
                <Th>Status</Th>
                <Th>Last sign-in</Th>
                <Th className="text-right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {users.data.map((u) => {
                const isMe = u.id === me.id;
                const changingRole = update.isPending && update.variables?.id === u.id && update.variables.role !== undefined;
                return (
                  <Tr key={u.id} data-testid="user-row">
                    <Td primary>
                      <p className="font-medium text-slate-900">
                        {u.name || <span className="font-normal text-slate-500">No name yet</span>}
                        {isMe && (
                          <Badge tone="indigo" className="ml-2">
                            You
                          </Badge>
                        )}
                      </p>
                      <p className="text-xs text-slate-500">{u.email}</p>
                    </Td>
                    <Td label="Role">
                      <Select
                        aria-label={`Role of ${u.email}`}
                        value={u.role}
                        disabled={changingRole || Boolean(u.disabledAt)}
                        onChange={(e) => update.mutate({ id: u.id, role: e.target.value as HqRole })}
                        options={ROLE_OPTIONS}
                        className="w-32"
                      />
                    </Td>
                    <Td label="Status">
                      {u.disabledAt ? (
                        <Badge tone="neutral">Disabled</Badge>
                      ) : u.invitePending ? (
                        <Badge tone="amber">Invite pending</Badge>
                      ) : (
                        <Badge tone="green">Active</Badge>
                      )}
                    </Td>
                    <Td label="Last sign-in">
                      <span title={u.lastLoginAt ? formatDateTime(u.lastLoginAt) : undefined}>{formatRelative(u.lastLoginAt)}</span>
                    </Td>
                    <Td className="text-right">
                      {!isMe && (
                        <Button
                          variant={u.disabledAt ? "ghost" : "danger-ghost"}
                          size="sm"
                          onClick={() => {
                            update.reset();
                            setToggling(u);
                          }}
                        >
                          {u.disabledAt ? "Enable" : "Disable"}
                        </Button>
                      )}
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
        )}
      </Card>
      <BackupCard />
      <InviteUserDialog open={inviting} onClose={() => setInviting(false)} />
      <ConfirmDialog
        open={toggling !== null}
        onClose={() => setToggling(null)}
        title={toggling?.disabledAt ? `Enable ${toggling.email}?` : `Disable ${toggling?.email ?? ""}?`}
        description={
          toggling?.disabledAt
            ? "They can sign in again with their password."
            : "They are signed out at once and can't sign in until an admin enables them again."
        }
        confirmLabel={toggling?.disabledAt ? "Enable user" : "Disable user"}
        tone={toggling?.disabledAt ? "primary" : "danger"}
        onConfirm={() => toggling && update.mutateAsync({ id: toggling.id, disabled: !toggling.disabledAt })}
      />
    </>
  );
}
