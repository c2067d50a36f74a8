import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditPage } from "@/components/audit/audit-page";
import { LoadingState } from "@/components/ui/loading-state";

export const metadata: Metadata = { title: "Audit log · Memory HQ" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingState label="Loading the audit log…" rows={8} />}>
      <AuditPage />
    </Suspense>
  );
}
