// `npm run db:diff -- <name> [--all]`: writes supabase/migrations/<UTC timestamp>_<name>.sql carrying
// the full definition of every function and view whose schema file (supabase/schemas/) differs from
// its newest definition in the migrations, the drops a changed signature needs, and the drops of
// objects whose schema file was removed. Exits 1, writing nothing, when nothing differs. `--all`
// writes every object, changed or not.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { MIGRATIONS_DIR } from "@/lib/db/migrate";
import { diffSchemas, readMigrationScripts, readSchemaFiles, renderMigration } from "@/lib/db/schema-diff";

/** A version after every existing one: the UTC time now, or one second after the newest migration if the clock is behind it. */
function nextVersion(existing: string[]): string {
  const now = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const newest = existing.map((s) => s.slice(0, 14)).sort().at(-1);
  if (!newest || now > newest) return now;
  const t = new Date(Date.UTC(+newest.slice(0, 4), +newest.slice(4, 6) - 1, +newest.slice(6, 8), +newest.slice(8, 10), +newest.slice(10, 12), +newest.slice(12, 14) + 1));
  return t.toISOString().replace(/\D/g, "").slice(0, 14);
}

async function main() {
  const args = process.argv.slice(2);
  const all = args.includes("--all");
  const name = args.find((a) => !a.startsWith("--"));
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    throw new Error("Usage: npm run db:diff -- <name> [--all]   (name: lower case letters, digits and _, e.g. search_memories_recency)");
  }
  const migrations = await readMigrationScripts();
  const changes = diffSchemas(migrations, await readSchemaFiles(), { all });
  if (!changes.length) {
    throw new Error("Every function and view in supabase/schemas/ is as the migrations leave it: there is nothing to write.");
  }
  const file = path.join(MIGRATIONS_DIR, `${nextVersion(migrations.map((m) => m.source))}_${name}.sql`);
  await writeFile(file, renderMigration(changes, `npm run db:diff -- ${args.join(" ")}`), { flag: "wx" });
  console.log(`Wrote ${path.relative(process.cwd(), file)}:`);
  for (const c of changes) console.log(`  ${c.status.padEnd(8)} ${c.kind} ${c.name}`);
  const notes = changes.flatMap((c) => c.notes);
  if (notes.length) console.log(`\nCheck by hand (also in the file's header):\n${notes.map((n) => `  - ${n}`).join("\n")}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
