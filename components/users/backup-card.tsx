"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { errorMessage } from "@/lib/console/api";
import { useDatabaseKind, useDownloadBackup } from "@/lib/console/hooks/backup";

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** HQ admins download a consistent backup of the embedded database (a server database uses its own tools). */
export function BackupCard() {
  const kind = useDatabaseKind();
  const [received, setReceived] = useState(0);
  const download = useDownloadBackup(setReceived);
  const server = kind.data === "postgres";

  return (
    <Card className="mt-6" data-testid="backup-card">
      <CardHeader
        title="Database backup"
        description="A copy of everything this instance stores, taken while it keeps serving. Restore it with npm run db:restore."
        actions={
          !server && (
            <Button
              onClick={() => {
                setReceived(0);
                download.mutate();
              }}
              disabled={download.isPending || kind.isPending}
            >
              {download.isPending ? `Downloading… ${megabytes(received)}` : "Download backup"}
            </Button>
          )
        }
      />
      <CardBody className="space-y-3 text-sm text-slate-600">
        {server ? (
          <Alert tone="info">
            This instance runs on a PostgreSQL server (DATABASE_URL), so it is backed up with the server&apos;s tools: <code>pg_dump</code>, or your
            host&apos;s backups (on Supabase: Database → Backups). See docs/OPERATIONS.md.
          </Alert>
        ) : (
          <p>
            The embedded database as one <code>.tar.gz</code> file: every client&apos;s data, so keep it as safe as the server. Writes wait a moment while it is
            copied. The download is recorded on the audit log.
          </p>
        )}
        {download.isError && <Alert tone="error">{errorMessage(download.error)}</Alert>}
        {download.isSuccess && (
          <Alert tone="success">
            Saved {download.data.filename} ({megabytes(download.data.bytes)}).
          </Alert>
        )}
      </CardBody>
    </Card>
  );
}
