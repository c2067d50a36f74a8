/** The jobs that report runs, as their `job` label: fixed here so dashboards can rely on them. */
export const JOB_NAMES = ["consolidate", "report_webhook", "access_fold", "purge_notes", "embedding_backfill"] as const;

export type JobName = (typeof JOB_NAMES)[number];
