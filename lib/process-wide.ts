/**
 * State kept once per process. Next.js may load a module more than once in one process (each route's
 * bundle, dev reloads), and every copy must share one database, one cache, one counter fold: such state
 * lives on `globalThis` under one of these names. What the production server shares with the app is
 * named in `server/seam.mjs` instead.
 */
const NAMES = {
  database: "__memoryHqDb",
  metrics: "__memoryHqMetrics",
  admission: "__memoryHqAdmission",
  requestScope: "__memoryHqRequestScope",
  briefings: "__memoryHqBriefings",
  vocabulary: "__memoryHqVocabulary",
  termStats: "__memoryHqTermStats",
  accessFold: "__memoryHqAccessFold",
  scheduler: "__memoryHqScheduler",
  batches: "__memoryHqBatches",
  knowledgeImports: "__memoryHqKnowledgeImports",
  leftovers: "__memoryHqLeftovers",
  localReembed: "__memoryHqLocalReembed",
  interactivePace: "__memoryHqInteractivePace",
  requestActivity: "__memoryHqRequestActivity",
} as const;

/** The process's one `name` object, made by `init` the first time any copy of a module asks. */
export function processWide<T>(name: keyof typeof NAMES, init: () => T): T {
  const g = globalThis as Record<string, unknown>;
  return (g[NAMES[name]] ??= init()) as T;
}
