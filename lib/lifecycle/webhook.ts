import "server-only";
import { getConfig } from "@/lib/config";
import { asJobRun } from "@/lib/metrics/jobs";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POSTs each report to REPORT_WEBHOOK_URL in the background: a failed or non-2xx delivery is retried
 * with exponential backoff (REPORT_WEBHOOK_BACKOFF_MS, doubling, REPORT_WEBHOOK_RETRIES times), and
 * the job that produced the reports never waits for it. Returns the delivery promise for tests.
 */
export function deliverReports<T extends { agentId: string; date: string }>(reports: T[]): Promise<void> {
  const { REPORT_WEBHOOK_URL: url, REPORT_WEBHOOK_RETRIES: retries, REPORT_WEBHOOK_BACKOFF_MS: backoff } = getConfig();
  if (!url || !reports.length) return Promise.resolve();
  return Promise.all(reports.map((r) => deliver(url, r, retries, backoff))).then(() => undefined);
}

async function deliver(url: string, report: { agentId: string; date: string }, retries: number, backoff: number) {
  // one delivery (all its attempts) is one run of the job: ok when delivered, error when given up
  const delivered = await asJobRun("report_webhook", () => attempts(url, report, retries, backoff), (ok) => !ok);
  if (!delivered) console.error(`[memory-hq] report webhook gave up on ${report.agentId} ${report.date}`);
}

/** Posts the report until one attempt is answered 2xx (true) or the retries are spent (false). */
async function attempts(url: string, report: { agentId: string; date: string }, retries: number, backoff: number): Promise<boolean> {
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "memory-hq" },
        body: JSON.stringify({ type: "agent_report", report }),
        signal: AbortSignal.timeout(10_000),
      });
      if (res.ok) return true;
      console.warn(`[memory-hq] report webhook answered ${res.status} (attempt ${attempt + 1})`);
    } catch (err) {
      console.warn(`[memory-hq] report webhook failed (attempt ${attempt + 1}): ${(err as Error).message}`);
    }
    if (attempt < retries) await sleep(backoff * 2 ** attempt);
  }
  return false;
}
