// Where the SQL lives: migrations are history and never change once committed; each function and view
// has its desired state in its own file under supabase/schemas/, and the migrations leave it exactly so.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listMigrations } from "@/lib/db/migrate";
import { diffSchemas, readMigrationScripts, readSchemaFiles } from "@/lib/db/schema-diff";

const root = process.cwd();
const gitRaw = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
const git = (...args: string[]) => gitRaw(...args).trim();
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Migrations edited after they were committed, before checksums made that an error: frozen at the
 * content every database since has applied.
 */
const EDITED_BEFORE_CHECKSUMS: Record<string, string> = {
  "20261121170000_retrieval_fast_search.sql": "5d40c363fffb0fc55c67be251c595a9a41b3326ed3479817e08d3f98d38e0c55",
  "20261123110000_retrieval_bm25_context.sql": "900ce1837d900489e1ab4ecee22657a535a0cbb3fd3bf6623015a5508ee9478d",
  "20261124100000_interaction_conversation_ranking.sql": "da75f1341abf34fb0f718be07abdda5c917f330a16a073d7867aa2b9b35a5298",
  "20261124200000_retrieval_weighted_search.sql": "baa9940d466a0deab49ced0d2ac5afd247167bc7682072603131459a5b319f17",
  "20261125100000_retrieval_cached_plans.sql": "2174d4d6b0c96870bf07036470ef65d2f672a23c812012ca809c9bde78e6544c",
  "20261126100000_retrieval_generic_plans.sql": "e7f87613b2ec2f20a8467547b14c494cb9f79e4a629e8a500b2e583be569596a",
};

const CREATES = /\bcreate\s+(?:or\s+replace\s+)?(function|view|materialized\s+view)\s+([a-z0-9_."]+)/gi;

describe("migrations", () => {
  it("every committed migration is as it was first committed", async () => {
    expect(git("rev-parse", "--is-shallow-repository"), "needs the full git history (not a shallow clone)").toBe("false");
    const edited: string[] = [];
    const files = (await listMigrations()).map((m) => m.file);
    // the commit that first added each file, from one walk of the history (oldest last wins)
    const addedIn = new Map<string, string>();
    let commit = "";
    for (const line of git("log", "--diff-filter=A", "--name-only", "--format=@%H", "--", "supabase/migrations").split("\n")) {
      if (line.startsWith("@")) commit = line.slice(1);
      else if (line.trim()) addedIn.set(line.trim(), commit);
    }
    for (const file of files) {
      const rel = path.relative(root, file);
      const added = addedIn.get(rel);
      if (!added) continue; // not committed yet
      const now = readFileSync(file, "utf8");
      const frozen = EDITED_BEFORE_CHECKSUMS[path.basename(file)];
      const ok = frozen && rel.startsWith("supabase/migrations/") ? sha256(now) === frozen : now === gitRaw("show", `${added}:${rel}`);
      if (!ok) edited.push(rel);
    }
    expect(edited, "edited after being committed: put the change in a new migration instead").toEqual([]);
  }, 60_000);

  it("leave every function and view exactly as its schema file defines it (npm run db:diff has nothing to write)", async () => {
    const changes = diffSchemas(await readMigrationScripts(), await readSchemaFiles());
    const explain = (c: (typeof changes)[number]) =>
      c.status === "new"
        ? `${c.name}: no migration defines it`
        : c.status === "removed"
          ? `${c.name}: a migration defines it, no schema file does`
          : `${c.name}: its newest definition in the migrations differs from ${c.file!.path}`;
    expect(changes.map(explain), "run `npm run db:diff -- <name>` and commit the migration it writes").toEqual([]);
  });
});

describe("schema files", () => {
  it("each defines exactly the one object its name says", async () => {
    const wrong: string[] = [];
    for (const f of await readSchemaFiles()) {
      const names = [...f.text.matchAll(CREATES)].map(([, , n]) => n!.replace(/"/g, "").toLowerCase());
      if (names.length !== 1 || names[0] !== path.basename(f.path, ".sql")) wrong.push(`${f.path}: ${names.join(", ")}`);
    }
    expect(wrong).toEqual([]);
  });
});
