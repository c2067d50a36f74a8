import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/api";

// What a new integration does with the served document: lint it with Redocly's recommended rules and
// generate TypeScript types from it with openapi-typescript, then compile a client against them. Both
// tools are pinned devDependencies and run offline.

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
const bin = (p: string) => path.join(root, "node_modules", p);
// no telemetry, no update check: the test must pass without network
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

let dir: string;
let doc: Record<string, unknown>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "mhq-openapi-"));
  const res = await api("GET", "/api/v1/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
  writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(doc));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the served OpenAPI document with third-party tools", () => {
  it("names the server it was fetched from, and the Docs page there as the contact", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })]);
    expect((doc.info as { contact: { url: string } }).contact.url).toBe("http://localhost:3000/docs");
  });

  it("passes Redocly's recommended lint with no error and no warning", async () => {
    // run from the temporary folder so no redocly.yaml of the repository applies
    const { stdout } = await run(
      process.execPath,
      [bin("@redocly/cli/bin/cli.js"), "lint", "--extends=recommended", "--format=json", "openapi.json"],
      { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 },
    ).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`redocly lint failed:\n${err.stdout ?? ""}\n${err.stderr ?? ""}`.slice(0, 8000));
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 180_000);

  it("generates types with openapi-typescript that a strict client compiles against, wrong enums refused", async () => {
    await run(process.execPath, [bin("openapi-typescript/bin/cli.js"), "openapi.json", "-o", "api.d.ts"], { cwd: dir, env });
    writeFileSync(
      path.join(dir, "client.ts"),
      `import type { components, operations } from "./api";

type Write = operations["memories.write"];
type WriteBody = Write["requestBody"]["content"]["application/json"];
type Written = Write["responses"][201]["content"]["application/json"];
type Refusal = Write["responses"][422]["content"]["application/json"];

declare function call<B, R>(operationId: string, body: B): Promise<R>;

export async function remember(): Promise<components["schemas"]["Memory"]> {
  const body: WriteBody = {
    tier: "learning",
    category: "decision",
    title: "Offer Tuesday first",
    confidence: 0.8,
    decisionContext: { reasoning: "Friday is overbooked" },
  };
  const written = await call<WriteBody, Written>("memories.write", body);
  const tier: "core" | "working" | "learning" = written.memory.tier;
  void tier;
  return written.memory;
}

export const wrongTier: WriteBody = {
  // @ts-expect-error tier is core, working or learning
  tier: "long-term",
  category: "decision",
  title: "x",
  confidence: 0.8,
};

export const refusalCode = (r: Refusal): string => r.error.code;
`,
    );
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", skipLibCheck: false, types: [] },
        files: ["client.ts"],
      }),
    );
    await run(process.execPath, [bin("typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir, env }).catch(
      (err: { stdout?: string; stderr?: string }) => {
        throw new Error(`tsc failed:\n${err.stdout ?? ""}${err.stderr ?? ""}`.slice(0, 8000));
      },
    );
  }, 180_000);
});
