import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api, as, handlerFetch } from "../helpers/api";
import { transport } from "../helpers/db";
import { createAgent, createHqUser, rareWord } from "../helpers/fixtures";
import { TEST_ADMIN_KEY } from "../helpers/setup-env";
import { restoreOffline } from "@/lib/db/backup";
import { openPglite } from "@/lib/db/pglite";
import { DataDirNotEmptyError, PGLITE_SUBDIR } from "@/lib/db/snapshot";

const BACKUP = "http://localhost:3000/api/v1/admin/backup";
const dirs: string[] = [];
const tempDir = async () => {
  const d = await mkdtemp(path.join(os.tmpdir(), "mhq-backup-test-"));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe.skipIf(transport !== "pglite")("backup of the embedded database", () => {
  it("restores everything acked before the backup began while writes go on during it", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    const acked: { id: string; at: number }[] = [];
    let writing = true;
    let failed = 0;
    // the backup's start; the writers stop once 20 of their writes were answered while it ran (a flood
    // that never ends would only make the backup wait longer: it yields to requests)
    let began = Infinity;
    const writtenDuring = () => acked.filter((a) => a.at > began).length;
    const writer = async (w: number) => {
      for (let i = 0; writing && writtenDuring() < 20; i++) {
        const res = await as(agent.key).post("/api/v1/agents/me/memories", {
          tier: "learning", category: "insight", title: `${rareWord()} ${rareWord()} (${w}/${i})`, content: `${rareWord()} ${rareWord()} ${rareWord()}`, confidence: 0.7,
        });
        if (res.status !== 201) {
          failed++;
          throw new Error(`write refused: ${res.status} ${JSON.stringify(res.body)}`);
        }
        acked.push({ id: res.body.memory.id, at: performance.now() });
        // in process the embedded database answers through promises alone: let timers and the
        // backup's own steps have their turn between writes, as network I/O would
        await new Promise((r) => setImmediate(r));
      }
    };
    const writers = [0, 1].map(writer);
    while (acked.length < 15 && !failed) await new Promise((r) => setTimeout(r, 20));

    const ackedBefore = acked.map((a) => a.id);
    began = performance.now();
    let bytes: Uint8Array;
    let ended: number;
    try {
      const res = await handlerFetch(BACKUP, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/gzip");
      expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="memory-hq-backup-.*\.tar\.gz"/);
      bytes = new Uint8Array(await res.arrayBuffer());
      ended = performance.now();
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    expect(failed).toBe(0);
    // the writers were not stopped by the backup: some of their writes were answered while it ran
    expect(acked.filter((a) => a.at > began && a.at < ended).length).toBeGreaterThan(0);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]); // gzip

    const file = path.join(await tempDir(), "backup.tar.gz");
    await writeFile(file, bytes);
    const dataDir = path.join(await tempDir(), "restored");
    await restoreOffline(file, dataDir);
    // the restored folder opens as the app opens it
    const { db } = await openPglite(path.join(dataDir, PGLITE_SUBDIR));
    try {
      const [present] = await db.query<{ n: number }>("select count(*)::int as n from memories where id = any($1::uuid[])", [ackedBefore]);
      expect(present!.n).toBe(ackedBefore.length);
      // the backup is on the audit log, in the backup itself too
      const [audited] = await db.query<{ n: number }>("select count(*)::int as n from audit_log where action = 'database.backup'");
      expect(audited!.n).toBe(1);
    } finally {
      await db.close();
    }
    // copying, restoring and opening a database folder twice: minutes on a busy machine
  }, 300_000);

  it("is refused to everyone but HQ admins", async () => {
    const agent = await createAgent({ kind: "internal", role: "manager" });
    expect((await api("GET", "/api/v1/admin/backup", { key: agent.key })).status).toBe(403);
    for (const role of ["viewer", "curator"] as const) {
      const user = await createHqUser(role);
      const res = await api("GET", "/api/v1/admin/backup", { cookie: user.cookie });
      expect(res.status, role).toBe(403);
    }
    expect((await api("GET", "/api/v1/admin/backup")).status).toBe(401);
    const admin = await createHqUser("admin");
    const res = await handlerFetch(BACKUP, { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });

  it("restores only into an empty folder", async () => {
    const res = await handlerFetch(BACKUP, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    const file = path.join(await tempDir(), "backup.tar.gz");
    await writeFile(file, new Uint8Array(await res.arrayBuffer()));
    const occupied = await tempDir();
    await writeFile(path.join(occupied, "keep.txt"), "mine");
    await expect(restoreOffline(file, occupied)).rejects.toBeInstanceOf(DataDirNotEmptyError);
  });
});

describe.skipIf(transport === "pglite")("backup on a server database", () => {
  it("answers 409 naming pg_dump", async () => {
    const res = await api("GET", "/api/v1/admin/backup", { key: TEST_ADMIN_KEY });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("conflict");
    expect(res.body.error.message).toContain("pg_dump");
  });
});
