// The README's "Connect an agent" snippets, run as shown against the demo data on a running server
// (only the address differs: the test server's instead of http://localhost:3000): the key check with
// curl, the client package installed from /downloads in a fresh project outside the repository, the
// agent.mjs script, and both MCP configurations.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { adminApi, demoAgentId } from "./helpers";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The README's fenced block of `lang` that contains `marker`, for the server at `baseURL`. */
function snippet(lang: string, marker: string, baseURL: string): string {
  const blocks = [...README.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
  const block = blocks.find((b) => b.includes(marker));
  expect(block, `README block (${lang}) with ${marker}`).toBeTruthy();
  return block!.replaceAll("http://localhost:3000", baseURL);
}

test("the README's connect snippets run as shown against the demo data", async ({ request, baseURL }) => {
  test.setTimeout(300_000);
  const base = baseURL!;
  const hq = adminApi();
  const { key } = await hq.agents.issueKey({ params: { agentId: await demoAgentId("Santos") }, body: { label: "README" } });
  const project = mkdtempSync(path.join(tmpdir(), "mhq-readme-"));
  const env = { ...process.env, MEMORY_HQ_KEY: key };

  try {
    await test.step("the server hands out the client package at its own version", async () => {
      const res = await request.get("/downloads/memory-hq-client.tgz");
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toBe("application/gzip");
      expect(res.headers()["x-memory-hq-version"]).toBe(VERSION);
    });

    await test.step("a key: curl answers as Santos", async () => {
      const script = snippet("bash", "export MEMORY_HQ_KEY", base).replace(/^export MEMORY_HQ_KEY=.*$/m, "");
      const { stdout } = await run("bash", ["-c", script], { env });
      expect(JSON.parse(stdout).agent).toMatchObject({ name: "Santos", kind: "field" });
    });

    await test.step("npm install from /downloads in a fresh project, then agent.mjs", async () => {
      writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "my-agent", private: true }));
      const install = snippet("bash", "/downloads/memory-hq-client.tgz", base).trim();
      expect(install).toBe(`npm install ${base}/downloads/memory-hq-client.tgz`);
      await run("bash", ["-c", `${install} --no-audit --no-fund`], { cwd: project });
      const installed = JSON.parse(readFileSync(path.join(project, "node_modules/memory-hq-client/package.json"), "utf8"));
      expect(installed.version).toBe(VERSION);

      writeFileSync(path.join(project, "agent.mjs"), snippet("js", "// agent.mjs", base));
      const { stdout } = await run(process.execPath, ["agent.mjs"], { cwd: project, env });
      // the demo's own memory first, then the new one found again
      expect(stdout).toContain("Dana Whitfield's leaking water heater");
      expect(stdout.trim().split("\n").at(-1)).toBe("Dana Whitfield prefers morning visits");
    });

    const withKey = (config: string) => JSON.parse(config.replaceAll("mhq_…", key)).mcpServers["memory-hq"];

    await test.step("MCP over Streamable HTTP with the README's configuration", async () => {
      const server = withKey(snippet("json", '"type": "http"', base));
      const client = new Client({ name: "readme-http", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["boot", "retrieve", "memory_write"]));
      await client.close();
    });

    await test.step("MCP over stdio: npx runs the package's memory-hq-mcp from /downloads", async () => {
      const server = withKey(snippet("json", "memory-hq-mcp", base));
      expect(server.command).toBe("npx");
      const client = new Client({ name: "readme-stdio", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: server.command,
          args: server.args,
          // npx keeps its cache in the fresh project, so this run fetches the package from the server
          env: { ...(process.env as Record<string, string>), npm_config_cache: path.join(project, ".npm"), ...server.env },
          cwd: project,
        }),
      );
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(["boot", "retrieve", "memory_write", "log_interaction"]));
      await client.close();
    });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
