import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AgentCaller } from "@/lib/auth/caller";
import { ApiError, errorBody } from "@/lib/http/errors";
import { parseBody, toApiError } from "@/lib/http/route";
import { bootPrompt, dailyTemplate, documentResources, getBootPrompt, mayBoot, mayReadDocuments, readDocumentResource } from "./resources";
import { toolsFor, type McpTool } from "./tools";

const wire = (value: unknown) => JSON.parse(JSON.stringify(value ?? {})) as Record<string, unknown>;

/**
 * A zod schema as the JSON Schema a tool lists: the wire side (what is sent, dates as strings), draft-07
 * as the MCP SDK's clients compile it, and always an object at the root as MCP requires (a union of
 * answers is an object with `anyOf`).
 */
function jsonSchema(schema: z.ZodType): Tool["inputSchema"] {
  const s = portable(z.toJSONSchema(schema, { target: "draft-7", io: "input", unrepresentable: "any" })) as Record<string, unknown>;
  return { ...s, type: "object" } as Tool["inputSchema"];
}

const ANNOTATIONS = new Set(["description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

/**
 * The spelling the most clients read: a nullable value as `anyOf` of its type and null rather than a
 * `type` array (clients that map tool schemas onto a one-type dialect drop or refuse those), and a
 * value of any shape as `true` rather than an empty object.
 */
function portable(node: unknown, key?: string): unknown {
  if (Array.isArray(node)) return node.map((n) => portable(n));
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node as Record<string, unknown>);
  if (entries.length === 0 && (key === "additionalProperties" || key === "items")) return true;
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    // property names and enum values are data, not schemas
    out[k] = k === "properties" || k === "definitions" || k === "$defs"
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([name, s]) => [name, portable(s)]))
      : k === "enum" || k === "required" || k === "const"
        ? v
        : portable(v, k);
  }
  const type = out.type;
  if (Array.isArray(type) && type.includes("null") && type.length === 2) {
    const other = type.find((t) => t !== "null");
    const annotations: Record<string, unknown> = {};
    const typed: Record<string, unknown> = { type: other };
    for (const [k, v] of Object.entries(out)) {
      if (k === "type") continue;
      if (ANNOTATIONS.has(k)) annotations[k] = v;
      else typed[k] = k === "enum" && Array.isArray(v) ? v.filter((e) => e !== null) : v;
    }
    return { ...annotations, anyOf: [typed, { type: "null" }] };
  }
  return out;
}

// an output schema is the same for every caller: converted once per tool
const outputSchemas = new WeakMap<McpTool, Tool["inputSchema"]>();
const outputSchema = (t: McpTool) => {
  let s = outputSchemas.get(t);
  if (!s) outputSchemas.set(t, (s = jsonSchema(t.output)));
  return s;
};

export function toolListing(t: McpTool, caller: AgentCaller): Tool {
  const write = t.effect === "read" ? null : t.effect;
  const read = write === null;
  return {
    name: t.name,
    title: t.title,
    description: t.description(caller),
    inputSchema: jsonSchema(t.input(caller)),
    outputSchema: outputSchema(t),
    annotations: {
      title: t.title,
      readOnlyHint: read,
      // the hints below describe writes; for a read they are what they are: nothing changes
      destructiveHint: write?.destructive ?? false,
      idempotentHint: write?.idempotent ?? true,
      // the tools act on this server's memory only
      openWorldHint: false,
    },
  };
}

// The test suites set this: every tool's answer is checked against its output schema, as every API
// answer is checked against its contract (lib/http/route.ts).
const verifyResponses = process.env.MHQ_VERIFY_RESPONSES === "1";

/** A refusal as the model sees it: the API's error body, flagged isError. */
function refusal(err: unknown): CallToolResult {
  const e = toApiError(err);
  return { isError: true, content: [{ type: "text", text: JSON.stringify(errorBody(e.code, e.message, e.details)) }] };
}

async function callTool(caller: AgentCaller, tools: McpTool[], name: string, args: unknown): Promise<CallToolResult> {
  const t = tools.find((x) => x.name === name);
  try {
    if (!t) throw new ApiError("not_found", `Tool ${name} not found: tools/list names the tools your role may use`);
    // a transcript's bad message is named by its position, as the API names it (details.index)
    const input = parseBody(t.input(caller), args ?? {}, t.contract.bodyItems);
    const result = wire(await t.run(caller, input as never));
    if (verifyResponses) {
      const check = t.output.safeDecode(result as never);
      if (!check.success) throw new Error(`The answer of tool ${t.name} does not match its output schema: ${z.prettifyError(check.error)}`);
    }
    return { content: [{ type: "text", text: t.summary(result as never) }], structuredContent: result };
  } catch (err) {
    return refusal(err);
  }
}

/** Runs one handler at a time: a batch of messages in one request uses the one admission slot it was given. */
function serialized() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const next = last.then(fn, fn);
    last = next.catch(() => undefined);
    return next;
  };
}

/**
 * An MCP server for one request of one agent: only the tools its role may use, with input schemas
 * offering only the options its role may use; its documents as resources and its boot context as a
 * prompt when its role may read them. Nothing is announced that the server does not do: no list
 * change notifications, no subscriptions.
 */
export function buildMcpServer(caller: AgentCaller): Server {
  const tools = toolsFor(caller);
  const documents = mayReadDocuments(caller);
  const boot = mayBoot(caller);
  const server = new Server(
    { name: "memory-hq", title: "Memory HQ", version: "1.0.0" },
    {
      capabilities: { tools: {}, ...(documents ? { resources: {} } : {}), ...(boot ? { prompts: {} } : {}) },
      instructions:
        "Memory HQ is your long-term memory. Call boot when you start, retrieve before answering about the past, " +
        "memory_write when you learn something worth keeping, and keep your scratchpad current.",
    },
  );
  const one = serialized();

  handle(server, ListToolsRequestSchema, async () => ({ tools: tools.map((t) => toolListing(t, caller)) }));
  handle(server, CallToolRequestSchema, (req) => one(() => callTool(caller, tools, req.params.name, req.params.arguments)));

  if (documents) {
    handle(server, ListResourcesRequestSchema, async () => ({ resources: documentResources() }));
    handle(server, ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [dailyTemplate] }));
    handle(server, ReadResourceRequestSchema, (req) => one(() => asProtocolError(() => readDocumentResource(caller, req.params.uri))));
  }
  if (boot) {
    handle(server, ListPromptsRequestSchema, async () => ({ prompts: [bootPrompt] }));
    handle(server, GetPromptRequestSchema, (req) =>
      one(() =>
        asProtocolError(async () => {
          // an unknown prompt name is invalid params (MCP's prompts: -32602), not a missing resource
          if (req.params.name !== bootPrompt.name) {
            throw new McpError(ErrorCode.InvalidParams, `Prompt ${req.params.name} not found: prompts/list names the prompts you may use`);
          }
          return getBootPrompt(caller);
        }),
      ),
    );
  }
  return server;
}

type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> }>;

/**
 * Registers `handler` for `schema`'s method, its params checked here: a request whose params do not
 * fit the method (a `tools/call` without a name, a `resources/read` whose uri is a number) is the
 * caller's mistake, JSON-RPC's -32602 Invalid params naming what is wrong. The SDK would check them
 * itself and answer -32603 Internal error, telling the client the server broke; so the SDK is given
 * only the method to match.
 */
function handle<S extends RequestSchema>(
  server: Server,
  schema: S,
  handler: (request: z.output<S>) => ReturnType<Parameters<Server["setRequestHandler"]>[1]>,
) {
  const method = schema.shape.method.value;
  server.setRequestHandler(z.looseObject({ method: schema.shape.method }), (request) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) {
      const where = parsed.error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; ");
      throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${where}`);
    }
    return handler(parsed.data);
  });
}

/**
 * Resources and prompts have no error result: a refusal is a JSON-RPC error carrying the API's error
 * body as its data (an unknown resource is MCP's resource-not-found code).
 */
async function asProtocolError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof McpError) throw err;
    const e = toApiError(err);
    const code = e.code === "not_found" ? -32002 : e.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    throw new McpError(code, e.message, errorBody(e.code, e.message, e.details));
  }
}
