// The migration generator (`npm run db:diff`): how it reads SQL, and what it writes for each kind of change.
import { describe, expect, it } from "vitest";
import { diffSchemas, renderMigration, type SchemaFile } from "@/lib/db/schema-diff";
import { objectsAfter, readSchemaFile } from "@/lib/db/sql-objects";
import { normalizeStatement, splitStatements } from "@/lib/db/sql-text";

const schema = (name: string, text: string, folder = "functions"): SchemaFile => {
  const path = `supabase/schemas/${folder}/${name}.sql`;
  return { path, text, definition: readSchemaFile(path, text) };
};
const migrations = (...sql: string[]) => sql.map((s, i) => ({ source: `2026010100000${i}_m.sql`, sql: s }));

const PLUS = `create or replace function mhq.plus(a int, b int default 1) returns int
language sql immutable as $$ select a + b $$;
revoke all on function mhq.plus(int, int) from public;`;

describe("reading SQL", () => {
  it("splits statements only at semicolons outside quotes, comments and bodies", () => {
    const sql = `-- a comment; with a semicolon
select 'a;b', "c;d" from t; /* outer /* nested; */ still; */ select E'it\\'s;' ;
create function f() returns int language plpgsql as $body$ begin return 1; end $body$;
do $$ begin perform 1; end $$`;
    expect(splitStatements(sql)).toEqual([
      `select 'a;b', "c;d" from t`,
      `select E'it\\'s;'`,
      "create function f() returns int language plpgsql as $body$ begin return 1; end $body$",
      "do $$ begin perform 1; end $$",
    ]);
  });

  it("normalises spelling and indentation, never a body's words", () => {
    const a = "CREATE OR REPLACE FUNCTION f( x int )\n  RETURNS int -- why\nLANGUAGE sql AS $$\n    select x\n$$";
    const b = "create or replace function f(x int) returns int language sql as $f$ select x $f$";
    expect(normalizeStatement(a)).toBe(normalizeStatement(b));
    expect(normalizeStatement(b.replace("select x", "select x + 0"))).not.toBe(normalizeStatement(b));
    // a string literal keeps its case and spaces
    expect(normalizeStatement("select 'A  b'")).toBe("select 'A  b'");
  });

  it("follows each function through creates, drops by signature (any spelling of its types), alters and run-time definitions", () => {
    const live = objectsAfter(
      migrations(
        PLUS,
        "create function mhq.gone(x float8, y timestamptz) returns void language sql as $$ select $$;",
        "drop function if exists mhq.gone(double precision, timestamp with time zone);",
        "drop function mhq.plus(text);", // another signature: mhq.plus(int, int) stays
        "alter function mhq.plus(integer, integer) set search_path = pg_catalog;",
        "do $do$ begin execute format($f$ create or replace function mhq.built(q vector(3)) returns int %s as $$ select 1 $$ $f$, ''); end $do$;",
      ),
    );
    expect(live.map((d) => [d.name, d.args, d.dynamic])).toEqual([
      ["mhq.plus", ["integer", "integer"], false],
      ["mhq.built", ["vector"], true],
    ]);
    expect(live[0]!.about).toEqual(["revoke all on function mhq.plus(int,int)from public", "alter function mhq.plus(integer,integer)set search_path=pg_catalog"]);
  });
});

describe("npm run db:diff", () => {
  it("writes nothing when every schema file is what the migrations leave", () => {
    expect(diffSchemas(migrations(PLUS), [schema("mhq.plus", PLUS.replace(/\n/g, "\n  ").replace("$$ select", () => "$$\n      select"))])).toEqual([]);
  });

  it("carries a changed body in full, and a new object", () => {
    const changed = schema("mhq.plus", PLUS.replace("a + b", "b + a"));
    const added = schema("mhq.minus", "create function mhq.minus(a int) returns int language sql as $$ select -a $$;");
    const changes = diffSchemas(migrations(PLUS), [added, changed]);
    expect(changes.map((c) => [c.status, c.name, c.drops])).toEqual([
      ["new", "mhq.minus", []],
      ["changed", "mhq.plus", []],
    ]);
    const sql = renderMigration(changes, "npm run db:diff -- t");
    expect(sql).toContain("select b + a");
    expect(sql).toContain(changed.text.trim());
    expect(sql).toContain("-- New: mhq.minus.");
    expect(sql).not.toContain("vector"); // no hnsw setting: the library need not be loaded
  });

  it("drops the old signature when the arguments change, and drops and recreates (saying so) when a name or the result changes", () => {
    const widened = schema("mhq.plus", PLUS.replace("b int default 1)", "b int default 1, c int default 0)").replace("(int, int)", "(int, int, int)"));
    expect(diffSchemas(migrations(PLUS), [widened])[0]!.drops).toEqual(["drop function if exists mhq.plus(integer, integer);"]);

    const renamed = diffSchemas(migrations(PLUS), [schema("mhq.plus", PLUS.replace(/\bb\b/g, "bb"))])[0]!;
    expect(renamed.drops).toEqual(["drop function if exists mhq.plus(integer, integer);"]);
    expect(renamed.notes.join()).toMatch(/an argument was renamed.*trigger, policy, view/);

    const bigger = diffSchemas(migrations(PLUS), [schema("mhq.plus", PLUS.replace("returns int", "returns bigint"))])[0]!;
    expect(bigger.notes.join()).toContain("what it returns changed");
  });

  it("drops an object whose schema file is gone", () => {
    expect(diffSchemas(migrations(PLUS), []).map((c) => [c.status, c.drops])).toEqual([["removed", ["drop function if exists mhq.plus(integer, integer);"]]]);
  });

  it("writes again, with a note, an object last defined at run time; loads pgvector before an hnsw setting; orders SQL bodies after what they call", () => {
    const built = "do $do$ begin execute format($f$ create or replace function mhq.near(q vector) returns int %s as $$ select 1 $$ $f$, ''); end $do$;";
    const near = schema("mhq.near", "create or replace function mhq.near(q vector) returns int language plpgsql set hnsw.ef_search = 40 as $$ begin return 1; end $$;");
    // a sql function is checked when created: it must come after mhq.near, which sorts later
    const caller = schema("mhq.a_caller", "create or replace function mhq.a_caller() returns int language sql as $$ select mhq.near(null) $$;");
    const changes = diffSchemas(migrations(built), [caller, near]);
    expect(changes.find((c) => c.name === "mhq.near")!.notes.join()).toContain("built at run time by a DO block");
    const sql = renderMigration(changes, "npm run db:diff -- t");
    expect(sql.indexOf("perform '[1]'::vector")).toBeLessThan(sql.indexOf("hnsw.ef_search"));
    expect(sql.indexOf("function mhq.near(")).toBeLessThan(sql.indexOf("function mhq.a_caller("));
  });

  it("writes every object with --all, unchanged ones listed as such", () => {
    const changes = diffSchemas(migrations(PLUS), [schema("mhq.plus", PLUS)], { all: true });
    expect(changes.map((c) => c.status)).toEqual(["same"]);
    expect(renderMigration(changes, "npm run db:diff -- t --all")).toContain("-- Unchanged, written again (--all): mhq.plus.");
  });
});
