import { describe, expect, it } from "vitest";
import { admin, api } from "../helpers/api";
import { createAgent, createClient, createHqUser } from "../helpers/fixtures";

// A review of the sign-out, audit export and consolidation surfaces: each case here was a way in.

/** The cells of one CSV line (RFC 4180: quoted cells may hold commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (let m = re.exec(line); m && m.index < line.length; m = re.exec(line)) {
    cells.push(m[1]!);
    if (m[2] === "") break;
  }
  return cells;
}

describe("sign-out", () => {
  it("refuses a sign-out posted from another origin and leaves the session alone", async () => {
    const user = await createHqUser("viewer");
    const crossSite = await api("POST", "/api/v1/auth/logout", {
      cookie: user.cookie,
      headers: { origin: "https://evil.example", host: "localhost:3000" },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe("forbidden");
    expect(crossSite.headers.get("set-cookie")).toBeNull();
    expect((await api("GET", "/api/v1/auth/session", { cookie: user.cookie })).body.user).not.toBeNull();

    // the same request from our own pages signs out
    const own = await api("POST", "/api/v1/auth/logout", {
      cookie: user.cookie,
      headers: { origin: "http://localhost:3000", host: "localhost:3000" },
    });
    expect(own.status).toBe(200);
    expect((await api("GET", "/api/v1/auth/session", { cookie: user.cookie })).body.user).toBeNull();
  });

  it("refuses the other public writes (sign-in, setup, invitations) from another origin too", async () => {
    for (const path of ["/api/v1/auth/login", "/api/v1/auth/setup", "/api/v1/auth/accept-invite"]) {
      const res = await api("POST", path, {
        body: { email: "someone@example.com", password: "a long passphrase", token: "x".repeat(32) },
        headers: { origin: "https://evil.example", host: "localhost:3000" },
      });
      expect(res.status, path).toBe(403);
    }
  });
});

describe("the audit CSV export", () => {
  it("quotes every text cell and defuses formulas, full-width signs included", async () => {
    const names = ["note;=cmd|' /C calc'!A0;x", "＝HYPERLINK(\"http://evil.example\")", "＋1+2", "@SUM(A1)"];
    for (const name of names) await createClient(name);
    const csv = await admin.get("/api/v1/audit/export?action=client");
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split("\r\n");
    for (const line of lines.slice(1)) {
      for (const cell of csvCells(line)) {
        // empty cells are nulls; every other cell is one quoted string
        if (cell !== "") expect(cell, line).toMatch(/^"(?:[^"]|"")*"$/);
      }
    }
    expect(csv.body).toContain(`"note;=cmd|' /C calc'!A0;x"`);
    expect(csv.body).toContain(`"'＝HYPERLINK(""http://evil.example"")"`);
    expect(csv.body).toContain(`"'＋1+2"`);
    expect(csv.body).toContain(`"'@SUM(A1)"`);
  });
});

describe("what HQ users who do not manage accounts read in the audit log", () => {
  it("shows viewers and curators no HQ user's email and no key prefix, in the list and the export alike", async () => {
    const viewer = await createHqUser("viewer");
    const curator = await createHqUser("curator");
    const invitedEmail = `pending-${Math.random().toString(36).slice(2, 8)}@example.com`;
    expect((await admin.post("/api/v1/hq-users", { email: invitedEmail, role: "admin" })).status).toBe(201);
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const issued = await admin.post(`/api/v1/agents/${agent.id}/keys`, { label: "ci" });
    expect(issued.status).toBe(201);
    const prefix: string = issued.body.prefix;

    for (const reader of [viewer, curator]) {
      // what their other endpoints refuse
      expect((await api("GET", "/api/v1/hq-users", { cookie: reader.cookie })).status).toBe(403);
      expect((await api("GET", `/api/v1/agents/${agent.id}/keys`, { cookie: reader.cookie })).status).toBe(403);

      const list = await api("GET", "/api/v1/audit?action=hq_user,agent_key&limit=500", { cookie: reader.cookie });
      expect(list.status).toBe(200);
      const invite = list.body.entries.find((e: any) => e.action === "hq_user.invite" && e.details.role === "admin");
      expect(invite, "the invitation is still listed").toBeDefined();
      expect(list.body.entries.find((e: any) => e.action === "agent_key.issue" && e.targetId === agent.id)).toBeDefined();
      const exported = await api("GET", "/api/v1/audit/export?action=hq_user,agent_key", { cookie: reader.cookie });
      expect(exported.status).toBe(200);
      const others = [invitedEmail, ...[viewer, curator].filter((u) => u !== reader).map((u) => u.email)];
      for (const text of [JSON.stringify(list.body), String(exported.body)]) {
        for (const email of others) expect(text).not.toContain(email);
        expect(text).not.toContain(prefix);
      }
      // nor can they be confirmed through the actor filter
      const other = others[1]!;
      expect((await api("GET", `/api/v1/audit?actor=${encodeURIComponent(other)}`, { cookie: reader.cookie })).body.entries).toEqual([]);
      expect((await api("GET", "/api/v1/audit?actor=HQ%20user&action=hq_user", { cookie: reader.cookie })).body.entries.length).toBeGreaterThan(0);
    }

    // an admin, who manages both, still reads them
    const full = String((await admin.get("/api/v1/audit/export?action=hq_user,agent_key")).body);
    expect(full).toContain(invitedEmail);
    expect(full).toContain(viewer.email);
    expect(full).toContain(prefix);
    expect((await admin.get(`/api/v1/audit?actor=${encodeURIComponent(curator.email)}`)).body.entries.length).toBeGreaterThan(0);
  });
});

describe("replaying the consolidation", () => {
  it("refuses a time the job cannot compute with as 422 instead of failing with 500", async () => {
    for (const now of ["0001-01-01T00:00:00Z", "0999-12-31T23:59:59Z", "1969-12-31T23:59:59Z", "9999-12-31T23:00:00-05:00"]) {
      const res = await admin.post("/api/v1/jobs/consolidate", { now, dryRun: true });
      expect(res.status, `${now}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
    }
    const ok = await admin.post("/api/v1/jobs/consolidate", { now: "2001-02-03T04:05:06Z", dryRun: true });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.asOf).toBe("2001-02-03T04:05:06.000Z");
  });
});
