"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/console/api";
import { useBackfillStatus, useRunBackfill } from "@/lib/console/hooks/memory";

const PASS = 200;

/**
 * Rows written while the embedding provider was down wait with no embedding (the count spans all of
 * HQ, not one agent). This shows how many (admins only), in plain words, and embeds them pass by
 * pass, counting down what remains.
 */
export function ReembedBanner() {
  const status = useBackfillStatus();
  const run = useRunBackfill();
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  if (!status.data) return null;
  const { remaining } = status.data;
  if (remaining === 0 && !running && done === 0 && !problem) return null;

  async function start() {
    setRunning(true);
    setProblem(null);
    setDone(0);
    try {
      for (;;) {
        const report = await run.mutateAsync(PASS);
        setDone((d) => d + report.embedded);
        if (report.error) {
          setProblem(report.error);
          break;
        }
        if (report.remaining === 0 || report.embedded === 0) break;
      }
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setRunning(false);
    }
  }

  return (
    <Alert tone={problem ? "error" : remaining === 0 ? "success" : "warning"} title="Search by meaning">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p data-testid="reembed-status">
          {remaining === 0
            ? `Everything can be found by meaning again${done ? ` (${plural(done, "item")} indexed just now)` : ""}.`
            : `Across HQ, ${plural(remaining, "item")} saved while the meaning index was unavailable ${remaining === 1 ? "is" : "are"} found by exact words only${running ? ` — ${done} indexed so far` : ""}.`}
          {problem && <span className="mt-1 block">Stopped: {problem}</span>}
        </p>
        {remaining > 0 && (
          <Button size="sm" variant="secondary" onClick={start} loading={running}>
            {running ? "Indexing…" : "Index them now"}
          </Button>
        )}
      </div>
    </Alert>
  );
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
