/**
 * The client package `memory-hq-client` as the server hands it out (`GET /downloads/memory-hq-client.tgz`):
 * the hand-written runtime and stdio bridge from `packages/memory-hq-client`, plus what is generated from the
 * contracts every time — the endpoint table (`endpoints.js`) and the types of every endpoint
 * (`api.d.ts`) — at the server's own version, packed as `npm pack` packs (a gzipped tar of `package/…`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { z } from "zod";
import { api } from "@/lib/contracts";
import { fromZod } from "@/lib/json-schema/from-zod";
import type { AnyContract } from "@/lib/http/contract";
import { docComment, schemaToTs } from "./types";

export const SDK_PACKAGE_NAME = "memory-hq-client";

/** The package's source folder (the server runs from the repository root, as `next start` and the tests do). */
export const sdkPackageDir = () => path.join(process.cwd(), "packages", SDK_PACKAGE_NAME);

/** The server's version: the client package carries the same. */
export function serverVersion(): string {
  return (JSON.parse(readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { version: string }).version;
}

const toSchema = (s: z.ZodType) => fromZod(s);
const typeOf = (s: z.ZodType | undefined, pad: string) => (s ? schemaToTs(toSchema(s), pad) : "undefined");

/** The shortcuts in `src/core.js` call these endpoints: the package is not built without them. */
const SHORTCUT_ENDPOINTS = ["memories.boot", "memories.write", "retrieval.retrieve", "memories.createInteraction", "memories.createInteractionBatch"];

function domains(): [string, [string, AnyContract][]][] {
  return Object.entries(api).map(([domain, byName]) => [domain, Object.entries(byName as Record<string, AnyContract>)]);
}

/** `endpoints.js`: method, path and whether a body is sent, per domain and name. */
export function endpointTable(): string {
  const table = Object.fromEntries(
    domains().map(([domain, entries]) => [
      domain,
      Object.fromEntries(entries.map(([name, c]) => [name, { method: c.method, path: c.path, body: c.body !== undefined }])),
    ]),
  );
  return `// Generated from the server's contracts. Do not edit.\nexport const endpoints = ${JSON.stringify(table, null, 2)};\n`;
}

/** A call needs an input when the endpoint has path parameters or a body with a required field. */
const callInputRequired = (c: AnyContract) =>
  Boolean(c.params) || Boolean(c.body && ((toSchema(c.body).required as string[] | undefined)?.length ?? 0) > 0);

/** `api.d.ts`: every endpoint's params, query, body and response, and the client's methods. */
export function apiDeclarations(version: string): string {
  const names = new Set(domains().flatMap(([d, entries]) => entries.map(([n]) => `${d}.${n}`)));
  const missing = SHORTCUT_ENDPOINTS.filter((n) => !names.has(n));
  if (missing.length) throw new Error(`The client's shortcuts call endpoints the contracts no longer have: ${missing.join(", ")}`);

  let out = `// Generated from the contracts of Memory HQ ${version}. Do not edit.\n\n`;
  out += `/** Every endpoint by "domain.name": its method, path, path parameters, query, JSON body and JSON answer. */\nexport interface Endpoints {\n`;
  for (const [domain, entries] of domains()) {
    for (const [name, c] of entries) {
      const who = c.permission ? `Permission: ${c.permission}.` : "No authentication.";
      out += docComment([`${c.summary}`, `${c.method} ${c.path}. ${who}`], "  ");
      out += `  "${domain}.${name}": {\n`;
      out += `    method: "${c.method}";\n    path: "${c.path}";\n`;
      out += `    params: ${typeOf(c.params, "    ")};\n`;
      out += `    query: ${typeOf(c.query, "    ")};\n`;
      out += `    body: ${typeOf(c.body, "    ")};\n`;
      out += `    response: ${c.response ? typeOf(c.response, "    ") : c.produces ? "string" : "unknown"};\n`;
      out += `  };\n`;
    }
  }
  out += `}\n\n`;
  out += `/** What a call of an endpoint sends. */\nexport type Input<N extends keyof Endpoints> = (Endpoints[N]["params"] extends undefined ? { params?: undefined } : { params: Endpoints[N]["params"] }) &\n`;
  out += `  (Endpoints[N]["query"] extends undefined ? { query?: undefined } : { query?: Partial<Endpoints[N]["query"]> }) &\n`;
  out += `  (Endpoints[N]["body"] extends undefined ? { body?: undefined } : {} extends Endpoints[N]["body"] ? { body?: Endpoints[N]["body"] } : { body: Endpoints[N]["body"] });\n\n`;
  out += `/** The client's methods: \`client.<domain>.<name>(input)\` answers the endpoint's JSON (times as ISO strings). */\nexport interface Api {\n`;
  for (const [domain, entries] of domains()) {
    out += `  ${domain}: {\n`;
    for (const [name, c] of entries) {
      out += docComment([c.summary, `${c.method} ${c.path}`], "    ");
      const n = `"${domain}.${name}"`;
      out += `    ${name}(input${callInputRequired(c) ? "" : "?"}: Input<${n}>): Promise<Endpoints[${n}]["response"]>;\n`;
    }
    out += `  };\n`;
  }
  out += `}\n`;
  return out;
}

export interface PackageFile {
  /** path inside the package */
  path: string;
  content: Buffer;
  executable?: boolean;
}

/** The package's files: package.json and README, the runtime, the generated table and types, the bin. */
export function clientPackageFiles(version = serverVersion()): PackageFile[] {
  const dir = sdkPackageDir();
  const read = (p: string) => readFileSync(path.join(dir, p));
  const manifest = JSON.parse(read("package.json").toString("utf8")) as Record<string, unknown>;
  manifest.version = version;
  const text = (p: string, s: string): PackageFile => ({ path: p, content: Buffer.from(s, "utf8") });
  return [
    text("package.json", `${JSON.stringify(manifest, null, 2)}\n`),
    { path: "README.md", content: read("README.md") },
    { path: "index.js", content: read("src/index.js") },
    { path: "index.d.ts", content: read("src/index.d.ts") },
    { path: "core.js", content: read("src/core.js") },
    { path: "core.d.ts", content: read("src/core.d.ts") },
    text("endpoints.js", endpointTable()),
    text("endpoints.d.ts", `import type { Endpoint } from "./core.js";\nexport declare const endpoints: Record<string, Record<string, Endpoint>>;\n`),
    text("api.d.ts", apiDeclarations(version)),
    { path: "bin/memory-hq-mcp.mjs", content: read("bin/memory-hq-mcp.mjs"), executable: true },
  ];
}

// npm pack's fixed time for every entry (1985-10-26T08:15:00Z), so the same files make the same bytes
const NPM_MTIME = 499162500;

function tarHeader(name: string, size: number, mode: number, type: "0" | "5"): Buffer {
  const h = Buffer.alloc(512);
  const put = (s: string, offset: number, length: number) => h.write(s, offset, length, "utf8");
  const octal = (n: number, length: number) => `${n.toString(8).padStart(length - 1, "0")}\0`;
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  put(name, 0, 100);
  put(octal(mode, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(NPM_MTIME, 12), 136, 12);
  put("        ", 148, 8);
  put(type, 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
  return h;
}

/** A gzipped tar with every file under `package/`, as npm installs it. */
export function tarGz(files: PackageFile[]): Buffer {
  const parts: Buffer[] = [];
  const dirs = new Set<string>();
  for (const f of files) {
    const segments = f.path.split("/").slice(0, -1);
    for (let i = 1; i <= segments.length; i++) {
      const d = `package/${segments.slice(0, i).join("/")}/`;
      if (!dirs.has(d)) {
        dirs.add(d);
        parts.push(tarHeader(d, 0, 0o755, "5"));
      }
    }
    parts.push(tarHeader(`package/${f.path}`, f.content.length, f.executable ? 0o755 : 0o644, "0"));
    parts.push(f.content, Buffer.alloc((512 - (f.content.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

let cached: { version: string; tarball: Buffer } | undefined;

/** The tarball, built once per server process (the contracts and version do not change while it runs). */
export function sdkTarball(): { version: string; tarball: Buffer } {
  if (!cached) {
    const version = serverVersion();
    cached = { version, tarball: tarGz(clientPackageFiles(version)) };
  }
  return cached;
}
