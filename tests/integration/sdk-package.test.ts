// The client package as someone outside the repository gets it: downloaded from the server
// (GET /downloads/memory-hq-client.tgz), installed offline into a fresh project in the system's temp
// folder, then used from a plain Node ESM script, compiled against by a strict TypeScript project,
// and its memory-hq-mcp bin run over stdio. The server is the app's route handlers over HTTP.
import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as download } from "@/app/downloads/memory-hq-client.tgz/route";
import { handlerFetch } from "../helpers/api";
import { createAgent } from "../helpers/fixtures";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const serverVersion = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

let server: Server;
let base = "";
let project = "";

describe("the client package (GET /downloads/memory-hq-client.tgz) in a fresh project", () => {
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const url = `${base}${req.url}`;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer =
        req.url === "/downloads/memory-hq-client.tgz"
          ? await download(new Request(url, { method: req.method }))
          : await handlerFetch(url, { method: req.method, headers, body });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // outside the repository: nothing resolves to the repo's node_modules or its @/ paths
    project = mkdtempSync(path.join(tmpdir(), "mhq-client-project-"));
    expect(path.relative(ROOT, project).startsWith("..")).toBe(true);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "my-agent", private: true, type: "module" }));
    const tgz = await fetch(`${base}/downloads/memory-hq-client.tgz`);
    expect(tgz.status).toBe(200);
    expect(tgz.headers.get("content-type")).toBe("application/gzip");
    writeFileSync(path.join(project, "memory-hq-client.tgz"), Buffer.from(await tgz.arrayBuffer()));
    // no dependencies: installs without the registry
    await run("npm", ["install", "./memory-hq-client.tgz", "--offline", "--no-audit", "--no-fund"], { cwd: project });
  }, 180_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it("installs at the server's version, with no dependencies", () => {
    const installed = JSON.parse(readFileSync(path.join(project, "node_modules/memory-hq-client/package.json"), "utf8"));
    expect(installed).toMatchObject({ name: "memory-hq-client", version: serverVersion, type: "module", bin: { "memory-hq-mcp": "bin/memory-hq-mcp.mjs" } });
    expect(installed.dependencies ?? {}).toEqual({});
    const lock = JSON.parse(readFileSync(path.join(project, "package-lock.json"), "utf8"));
    expect(Object.keys(lock.packages).sort()).toEqual(["", "node_modules/memory-hq-client"]);
  });

  it("writes a memory and retrieves it from a plain Node ESM script", async () => {
    const agent = await createAgent({ kind: "internal", role: "orchestrator" });
    writeFileSync(
      path.join(project, "agent.mjs"),
      [
        `import { createMemoryHq, MemoryHqError } from "memory-hq-client";`,
        `const hq = createMemoryHq({ baseUrl: process.env.MEMORY_HQ_URL, apiKey: process.env.MEMORY_HQ_KEY });`,
        `const { memory } = await hq.writeMemory({ tier: "core", category: "client", title: "Sunrise Plumbing wants texts, not calls, after 5pm", confidence: 0.9 });`,
        `const { items } = await hq.retrieve({ message: "How do I reach Sunrise Plumbing after 5pm?", scopes: ["memories"] });`,
        `const refused = await hq.writeMemory({ tier: "core", category: "client", title: "x", confidence: 0.1 }).catch((e) => e);`,
        `const batch = await hq.logConversation([`,
        `  { channel: "sms", direction: "inbound", content: "Can you come Tuesday?", externalId: "m1" },`,
        `  { channel: "sms", direction: "outbound", content: "Tuesday 9am works.", externalId: "m2" },`,
        `]);`,
        `console.log(JSON.stringify({ id: memory.id, found: items.map((i) => i.id), refused: refused instanceof MemoryHqError ? [refused.status, refused.code] : null, batch: batch.interactions.length }));`,
      ].join("\n"),
    );
    const { stdout } = await run(process.execPath, ["agent.mjs"], {
      cwd: project,
      env: { ...process.env, MEMORY_HQ_URL: base, MEMORY_HQ_KEY: agent.key },
    });
    const out = JSON.parse(stdout);
    expect(out.found).toContain(out.id);
    expect(out.refused).toEqual([422, "validation_failed"]);
    expect(out.batch).toBe(2);
  });

  it("types a strict TypeScript project: a wrong enum is a compile error", async () => {
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", noEmit: true, skipLibCheck: false, types: [] },
        files: ["check.ts"],
      }),
    );
    // each @ts-expect-error must meet an error, or tsc fails on the unused directive: the enums are typed
    writeFileSync(
      path.join(project, "check.ts"),
      [
        `import { createMemoryHq, type Body, type Response } from "memory-hq-client";`,
        `const hq = createMemoryHq({ baseUrl: "http://localhost:3000", apiKey: "mhq_…" });`,
        `export async function agent(): Promise<string[]> {`,
        `  const memory: Body<"memories.write"> = { tier: "core", category: "client", title: "Sunrise Plumbing", confidence: 0.9 };`,
        `  await hq.memories.write({ params: { agentId: "me" }, body: memory });`,
        `  // @ts-expect-error "forever" is not a tier`,
        `  await hq.writeMemory({ tier: "forever", category: "client", title: "x", confidence: 0.9 });`,
        `  // @ts-expect-error "sales" is not a retrieval scope`,
        `  await hq.retrieve({ message: "x", scopes: ["sales"] });`,
        `  // @ts-expect-error confidence is a number`,
        `  await hq.writeMemory({ tier: "core", category: "client", title: "x", confidence: "high" });`,
        `  await hq.logInteraction({ channel: "sms", direction: "inbound", content: "hello" });`,
        `  const found: Response<"retrieval.retrieve"> = await hq.retrieve({ message: "Sunrise Plumbing", scopes: ["memories", "knowledge"] });`,
        `  return found.items.map((i) => \`\${i.source}: \${i.title}\`);`,
        `}`,
      ].join("\n"),
    );
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", project]).then(
      () => ({ code: 0, out: "" }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
    expect(result.out).toBe("");
    expect(result.code).toBe(0);
  }, 180_000);

  it("runs memory-hq-mcp over stdio: the agent's tools", async () => {
    const agent = await createAgent({ kind: "internal", role: "specialist" });
    const client = new Client({ name: "fresh-project", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: path.join(project, "node_modules/.bin/memory-hq-mcp"),
        env: { PATH: process.env.PATH ?? "", MEMORY_HQ_URL: base, MEMORY_HQ_KEY: agent.key },
        stderr: "pipe",
      }),
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["memory_write", "retrieve", "scratchpad_read", "log_interaction"]));
    const written = await client.callTool({
      name: "memory_write",
      arguments: { tier: "core", category: "client", title: "Written through the package's bridge", confidence: 0.9 },
    });
    expect(written.isError).toBeFalsy();
    await client.close();
  });
});
