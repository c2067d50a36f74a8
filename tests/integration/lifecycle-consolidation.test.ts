import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { claimsFor, withClaims } from "@/lib/db/caller";
import { runIfDue } from "@/lib/lifecycle/scheduler";
import { admin, as } from "../helpers/api";
import { transport } from "../helpers/db";
import { createAgent, createClient, type TestAgent } from "../helpers/fixtures";

// The nightly consolidation, replayed 15 days ahead: each rule, idempotence, dry runs, concurrency.

const DAY = 24 * 3600 * 1000;
const later = (days: number) => new Date(Date.now() + days * DAY).toISOString();

let sunrise: { id: string };
let internal: TestAgent;
let field: TestAgent;
type Named = "core" | "confident" | "lowUnused" | "lowUsed" | "resolved" | "activeWorking" | "pattern" | "fieldPattern" | "decision" | "staleCore";
const ids = {} as Record<Named, string>;

async function write(agent: TestAgent, body: Record<string, unknown>) {
  const res = await as(agent.key).post("/api/v1/agents/me/memories", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.memory.id as string;
}

beforeAll(async () => {
  sunrise = await createClient();
  internal = await createAgent({ kind: "internal", role: "specialist" });
  field = await createAgent({ kind: "field", role: "specialist", clientId: sunrise.id });
  const db = await getDatabase();

  ids.core = await write(internal, { tier: "core", category: "principle", title: "Quality over speed, always", confidence: 0.95 });
  ids.confident = await write(internal, { tier: "learning", category: "insight", title: "Clients answer texts faster than email", confidence: 0.9, surpriseScore: 0.8 });
  ids.lowUnused = await write(internal, { tier: "learning", category: "insight", title: "Maybe Tuesdays are slow for plumbers", confidence: 0.45, surpriseScore: 0.9 });
  ids.lowUsed = await write(internal, { tier: "learning", category: "insight", title: "Perhaps invoices go out on Fridays", confidence: 0.45, surpriseScore: 0.9 });
  await as(internal.key).get(`/api/v1/memories/${ids.lowUsed}`); // an agent's read is a use
  ids.resolved = await write(internal, { tier: "working", category: "thread", title: "Follow up with the Elm St customer", confidence: 0.8 });
  expect((await as(internal.key).patch(`/api/v1/memories/${ids.resolved}`, { status: "resolved" })).status).toBe(200);
  ids.activeWorking = await write(internal, { tier: "working", category: "project", title: "Website relaunch", confidence: 0.8 });
  // recurring, well-used learning memories: one internal, one of the field agent
  ids.pattern = await write(internal, { tier: "learning", category: "pattern", title: "Quotes sent within an hour close twice as often", confidence: 0.9, surpriseScore: 0.5 });
  ids.fieldPattern = await write(field, { tier: "learning", category: "correction", title: "Sunrise wants appointment reminders the evening before", confidence: 0.9, surpriseScore: 0.5 });
  ids.decision = await write(field, {
    tier: "learning", category: "decision", title: "Offer Saturday slots to Sunrise customers", confidence: 0.7, surpriseScore: 0.5,
    decisionContext: { reasoning: "Weekday slots are full" },
  });
  await db.query("update memories set accessed_count = 6 where id = any($1::uuid[])", [[ids.pattern, ids.fieldPattern]]);
  // a core memory nobody confirmed for 40 days
  ids.staleCore = await write(field, { tier: "core", category: "client", title: "Sunrise's office manager is Dana", confidence: 0.9 });
  await db.query("update memories set updated_at = now() - interval '40 days' where id = $1", [ids.staleCore]);

  for (const [i, date] of [later(-10), later(-2)].entries()) {
    const res = await as(internal.key).put("/api/v1/agents/me/documents/daily", { content: `note ${i}`, date: date.slice(0, 10) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  await db.query(`insert into agent_notes (agent_id, content) values ($1, 'short-lived')`, [internal.id]);
});

describe("consolidation", () => {
  it("is for HQ admins only: agents are refused by the API, and the database refuses their writes", async () => {
    expect((await as(internal.key).post("/api/v1/jobs/consolidate", {})).status).toBe(403);
    expect((await admin.post("/api/v1/jobs/consolidate", { dryRun: "yes" })).status).toBe(422);
    const db = await getDatabase();
    const agentClaims = claimsFor({ type: "agent", agentId: internal.id, name: internal.name, kind: "internal", role: "specialist", clientId: null, kbAccess: "read" });
    // an agent cannot claim the scheduler's lease nor write a nightly report
    const claimed = await withClaims(db, agentClaims, (tx) => tx.query("update job_leases set holder = 'me' returning name"));
    expect(claimed).toHaveLength(0);
    await expect(
      withClaims(db, agentClaims, (tx) =>
        tx.query("insert into agent_reports (agent_id, report_date, data, markdown) values ($1, current_date, '{}', '')", [internal.id]),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("a dry run at now + 15 days reports every change and changes nothing", async () => {
    const db = await getDatabase();
    const snapshot = () => db.query("select id, status, tier, version from memories order by id");
    const before = await snapshot();
    const res = await admin.post("/api/v1/jobs/consolidate", { now: later(15), dryRun: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.changes).toBeGreaterThan(0);
    expect(res.body.archived.expiredLearning.ids).toContain(ids.lowUnused);
    expect(await snapshot()).toEqual(before);
    expect((await db.query("select count(*)::int as n from agent_reports"))[0]).toEqual({ n: 0 });
    expect((await db.query("select count(*)::int as n from agent_notes"))[0]).toEqual({ n: 1 });
    // as of today only the note 10 days old is due; the one 2 days old is kept
    const today = await admin.post("/api/v1/jobs/consolidate", { dryRun: true });
    expect(today.body.archived.dailyNotes.count).toBe(1);
    expect(today.body.archived.expiredLearning.count).toBe(0);
  });

  it("replayed at now + 15 days applies each rule; core and confident memories stay active", async () => {
    const res = await admin.post("/api/v1/jobs/consolidate", { now: later(15) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body;
    expect(r.archived.expiredLearning.ids).toEqual([ids.lowUnused]);
    expect(r.pruned.resolvedWorking.ids).toEqual([ids.resolved]);
    expect(r.archived.dailyNotes.count).toBe(2); // 25 and 17 days old at the replay
    expect(r.purged.agentNotes.count).toBe(1);
    expect(r.flaggedForVerification.ids).toContain(ids.staleCore);
    expect(r.awaitingOutcomes.items.map((d: any) => d.id)).toEqual([ids.decision]);
    expect(r.awaitingOutcomes.items[0].ageDays).toBe(15);

    // promotions record what they came from; the field agent's lands in its client preferences
    const byFrom = Object.fromEntries(r.promoted.items.map((p: any) => [p.promotedFrom[0], p]));
    expect(Object.keys(byFrom).sort()).toEqual([ids.pattern, ids.fieldPattern].sort());
    expect(byFrom[ids.fieldPattern]).toMatchObject({ agentId: field.id, category: "preference" });
    expect(byFrom[ids.pattern]).toMatchObject({ agentId: internal.id, category: "procedure" });
    const promoted = (await admin.get(`/api/v1/memories/${byFrom[ids.fieldPattern].id}`)).body.memory;
    expect(promoted).toMatchObject({ tier: "core", category: "preference", scope: "agent", status: "active", relatedIds: [ids.fieldPattern], promotedFrom: [ids.fieldPattern] });
    const source = (await admin.get(`/api/v1/memories/${ids.fieldPattern}`)).body.memory;
    expect(source).toMatchObject({ status: "archived", archiveReason: "promoted" });

    const status = async (id: string) => (await admin.get(`/api/v1/memories/${id}`)).body.memory.status;
    expect(await status(ids.core)).toBe("active");
    expect(await status(ids.confident)).toBe("active");
    expect(await status(ids.lowUsed)).toBe("active"); // low confidence but used: kept
    expect(await status(ids.activeWorking)).toBe("active");
    expect(await status(ids.staleCore)).toBe("active"); // flagged, not archived
    expect((await admin.get(`/api/v1/memories/${ids.staleCore}`)).body.memory.needsVerification).toBe(true);
    // confirming it (any edit) clears the flag
    expect((await as(field.key).patch(`/api/v1/memories/${ids.staleCore}`, { confidence: 0.95 })).body.memory.needsVerification).toBe(false);

    // archived daily notes stay readable
    const db = await getDatabase();
    const notes = await db.query<{ archived: boolean }>("select archived_at is not null as archived from agent_documents where type = 'daily'");
    expect(notes.map((n) => n.archived)).toEqual([true, true]);
    const read = await as(internal.key).get(`/api/v1/agents/me/documents/daily?date=${later(-10).slice(0, 10)}`);
    expect(read.body.content).toBe("note 0");

    const audit = await admin.get("/api/v1/audit?action=lifecycle.consolidate");
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0].details.archivedExpiredLearning).toEqual([ids.lowUnused]);
  });

  it("a second run changes nothing", async () => {
    const res = await admin.post("/api/v1/jobs/consolidate", { now: later(15) });
    expect(res.status).toBe(200);
    expect(res.body.changes).toBe(0);
    expect(res.body.awaitingOutcomes.count).toBe(1); // listing is not a change
    expect((await admin.get("/api/v1/audit?action=lifecycle.consolidate")).body.entries).toHaveLength(1);
  });

  it("the scheduler's lease lets one instance run the day once", async () => {
    const at = new Date(Date.now() + 16 * DAY);
    at.setUTCHours(4, 0, 0, 0);
    const [a, b] = await Promise.all([runIfDue("instance-a", at), runIfDue("instance-b", at)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await runIfDue("instance-a", at)).toBeNull();
    // before CONSOLIDATE_AT (03:00) nothing runs
    const early = new Date(at.getTime() + DAY);
    early.setUTCHours(2, 0, 0, 0);
    expect(await runIfDue("instance-b", early)).toBeNull();
  });
});

describe.runIf(transport === "postgres")("concurrent consolidations on a real server", () => {
  it("do the work once", async () => {
    const lowIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      lowIds.push(await write(internal, { tier: "learning", category: "lesson", title: `Unsure lesson number ${i} about ${"xyzw"[i % 4]}`, confidence: 0.45, surpriseScore: 0.9 }));
    }
    const now = later(30);
    const runs = await Promise.all([0, 1, 2].map(() => admin.post("/api/v1/jobs/consolidate", { now })));
    for (const r of runs) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const archived = runs.flatMap((r) => r.body.archived.expiredLearning.ids);
    expect(archived.sort()).toEqual([...lowIds].sort());
    expect(runs.filter((r) => r.body.changes > 0)).toHaveLength(1);
  });
});

describe("the run lease: one consolidation at a time, in steps, across instances", () => {
  const lease = async () =>
    (await (await getDatabase()).query<{ holder: string | null; last_report: unknown }>(
      "select holder, last_report from job_leases where name = 'consolidation-run'",
    ))[0]!;

  it("only HQ admins claim it: HQ viewers and agents change nothing, agents do not even see it", async () => {
    const db = await getDatabase();
    const viewer = claimsFor({ type: "hq", userId: null, name: "viewer", email: null, role: "viewer" });
    const agent = claimsFor({ type: "agent", agentId: internal.id, name: internal.name, kind: "internal", role: "specialist", clientId: null, kbAccess: "read" });
    const claim = "update job_leases set holder = 'me', lease_until = now() + interval '1 hour' where name = 'consolidation-run' returning name";
    expect(await withClaims(db, viewer, (tx) => tx.query(claim))).toEqual([]);
    expect(await withClaims(db, agent, (tx) => tx.query(claim))).toEqual([]);
    expect(await withClaims(db, agent, (tx) => tx.query("select name from job_leases"))).toEqual([]);
    expect((await lease()).holder).toBeNull();
  });

  it("only HQ admins read or write a run's progress: HQ viewers and agents see none and change none", async () => {
    const db = await getDatabase();
    await db.query("insert into consolidation_progress (holder, step, changes) values ('a run', 0, '{}'::jsonb)");
    try {
      const viewer = claimsFor({ type: "hq", userId: null, name: "viewer", email: null, role: "viewer" });
      const agent = claimsFor({ type: "agent", agentId: internal.id, name: internal.name, kind: "internal", role: "specialist", clientId: null, kbAccess: "read" });
      for (const who of [viewer, agent]) {
        expect(await withClaims(db, who, (tx) => tx.query("select holder from consolidation_progress"))).toEqual([]);
        expect(await withClaims(db, who, (tx) => tx.query("delete from consolidation_progress returning holder"))).toEqual([]);
        await expect(
          withClaims(db, who, (tx) => tx.query("insert into consolidation_progress (holder, step, changes) values ('me', 1, '{}'::jsonb)")),
        ).rejects.toThrow(/row-level security/);
      }
      const adminClaims = claimsFor({ type: "hq", userId: null, name: "admin", email: null, role: "admin" });
      expect(await withClaims(db, adminClaims, (tx) => tx.query("select holder from consolidation_progress"))).toEqual([{ holder: "a run" }]);
    } finally {
      await db.query("delete from consolidation_progress");
    }
  });

  it("a backlog is worked off a few hundred rows a step, each row once, in a dry run too", async () => {
    const db = await getDatabase();
    await db.query(
      `insert into agent_notes (agent_id, content, created_at, expires_at)
       select $1, 'stale ' || g, now() - interval '2 days', now() - interval '1 day' from generate_series(1, 1200) g`,
      [internal.id],
    );
    // and core memories nobody confirmed for 40 days (another agent's: they would fill this one's
    // memory cap): a second rule with more rows than a first step takes
    const busy = await createAgent({ kind: "internal", role: "specialist" });
    const core = await write(busy, { tier: "core", category: "principle", title: "Measure twice, cut once", confidence: 0.9 });
    await db.query(
      `insert into memories (agent_id, scope, tier, category, title, content, source, confidence, updated_at)
       select agent_id, scope, tier, category, title || ' ' || g, content, source, confidence, now() - interval '40 days'
         from memories, generate_series(1, 250) g where id = $1`,
      [core],
    );
    const snapshot = () => db.query("select id, status, version, verification_flagged_at from memories order by id");
    const before = await snapshot();
    // a dry run's steps roll back: each goes on after the last row the one before took, so it
    // reports every row once, as the real run then changes them
    const preview = await admin.post("/api/v1/jobs/consolidate", { now: later(16), dryRun: true });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.purged.agentNotes.count).toBe(1200);
    expect(preview.body.flaggedForVerification.count).toBeGreaterThanOrEqual(250);
    expect(new Set(preview.body.flaggedForVerification.ids).size).toBe(preview.body.flaggedForVerification.count);
    expect(await snapshot()).toEqual(before);
    expect((await db.query<{ n: number }>("select count(*)::int as n from agent_notes where agent_id = $1", [internal.id]))[0]!.n).toBe(1200);

    const res = await admin.post("/api/v1/jobs/consolidate", { now: later(16) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.purged.agentNotes.count).toBe(1200);
    expect(res.body.flaggedForVerification.ids).toEqual(preview.body.flaggedForVerification.ids);
    const [left] = await db.query<{ n: number }>("select count(*)::int as n from agent_notes where agent_id = $1", [internal.id]);
    expect(left!.n).toBe(0);
    // each step kept only what it changed, and the run deleted its steps' rows as it ended
    expect(await db.query("select holder from consolidation_progress")).toEqual([]);
    const entries = (await admin.get("/api/v1/audit?action=lifecycle.consolidate")).body.entries;
    expect(entries[0].details.purgedAgentNotes).toBe(1200);
  });

  it("a run waits while another run holds the lease, and goes once it is freed", async () => {
    const db = await getDatabase();
    await db.query("update job_leases set holder = 'another instance', lease_until = now() + interval '1 minute' where name = 'consolidation-run'");
    let settled = false;
    const run = admin.post("/api/v1/jobs/consolidate", { now: later(17) }).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(settled).toBe(false);
    await db.query("update job_leases set holder = null, lease_until = null where name = 'consolidation-run'");
    const res = await run;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await lease()).toEqual({ holder: null, last_report: null });
  });

  it("a run whose step fails audits what it changed so far, as interrupted, and frees the lease for the next", async () => {
    const db = await getDatabase();
    const doubtful = await write(internal, { tier: "learning", category: "insight", title: "Maybe the Oak St office closes early", confidence: 0.45, surpriseScore: 0.9 });
    // the reports' step fails (as a full disk would), after the rules' step committed
    await db.exec(`
      create function public.test_refuse_reports() returns trigger language plpgsql as $$ begin raise exception 'the disk filled up'; end $$;
      create trigger test_refuse_reports before insert on agent_reports for each row execute function public.test_refuse_reports();`);
    try {
      const failed = await admin.post("/api/v1/jobs/consolidate", { now: later(19) });
      expect(failed.status).toBe(500);
    } finally {
      await db.exec("drop trigger test_refuse_reports on agent_reports; drop function public.test_refuse_reports();");
    }
    const entries = (await admin.get("/api/v1/audit?action=lifecycle.consolidate")).body.entries;
    expect(entries[0].details).toMatchObject({ interrupted: true, archivedExpiredLearning: [doubtful], reports: [] });
    expect(await lease()).toEqual({ holder: null, last_report: null });
    expect(await db.query("select holder from consolidation_progress")).toEqual([]);
    // the next run does the rest: the reports, and nothing the first one did
    const next = await admin.post("/api/v1/jobs/consolidate", { now: later(19) });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.archived.expiredLearning.ids).toEqual([]);
    expect(next.body.reports.count).toBeGreaterThan(0);
  });

  it("the steps a run that stopped midway had kept are audited together, as interrupted, by the next run", async () => {
    const db = await getDatabase();
    const asOf = later(21);
    const step = (changes: Record<string, unknown>) => ({
      asOf, archivedDailyNotes: [], archivedExpiredLearning: [], prunedResolvedWorking: [], purgedAgentNotes: 0,
      promoted: [], flaggedForVerification: [], reports: [], ...changes,
    });
    // its process stopped after two steps: the lease ran out, their rows are left
    await db.query("update job_leases set holder = 'stopped instance', lease_until = now() - interval '1 second' where name = 'consolidation-run'");
    await db.query(
      `insert into consolidation_progress (holder, step, changes) values
         ('stopped instance', 0, $1::text::jsonb), ('stopped instance', 1, $2::text::jsonb)`,
      [JSON.stringify(step({ archivedExpiredLearning: [ids.lowUnused], purgedAgentNotes: 3 })), JSON.stringify(step({ purgedAgentNotes: 2, reports: [ids.core] }))],
    );
    const res = await admin.post("/api/v1/jobs/consolidate", { now: later(21) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entries = (await admin.get("/api/v1/audit?action=lifecycle.consolidate")).body.entries;
    const audited = entries.find((e: { details: { interrupted?: boolean; asOf?: string } }) => e.details.interrupted && e.details.asOf === asOf);
    expect(audited?.details).toEqual({ ...step({ archivedExpiredLearning: [ids.lowUnused], purgedAgentNotes: 5, reports: [ids.core] }), interrupted: true });
    expect(await db.query("select holder from consolidation_progress")).toEqual([]);
    expect(await lease()).toEqual({ holder: null, last_report: null });
  });

  it("what a run that stopped midway had changed is audited, as interrupted, by the next run", async () => {
    const db = await getDatabase();
    const left = {
      asOf: later(20),
      archivedDailyNotes: [],
      archivedExpiredLearning: [ids.lowUnused],
      prunedResolvedWorking: [],
      purgedAgentNotes: 0,
      promoted: [],
      flaggedForVerification: [],
      reports: [],
    };
    // its process stopped: the lease ran out with its progress in it
    await db.query(
      "update job_leases set holder = 'stopped instance', lease_until = now() - interval '1 second', last_report = $1::text::jsonb where name = 'consolidation-run'",
      [JSON.stringify(left)],
    );
    const res = await admin.post("/api/v1/jobs/consolidate", { now: later(20) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entries = (await admin.get("/api/v1/audit?action=lifecycle.consolidate")).body.entries;
    const audited = entries.find((e: { details: { interrupted?: boolean; asOf?: string } }) => e.details.interrupted && e.details.asOf === left.asOf);
    expect(audited?.details).toEqual({ ...left, interrupted: true });
    expect(await lease()).toEqual({ holder: null, last_report: null });
  });
});
