"use client";

import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";

// Catches what a page failed to render; queries show their own ErrorState before it comes to this.
export default function HqError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Card>
      <ErrorState title="This page failed to load" error={error} onRetry={reset} />
    </Card>
  );
}
