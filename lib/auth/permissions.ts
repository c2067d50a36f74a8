import { ApiError } from "@/lib/http/errors";
import type { Caller } from "./caller";

/**
 * The permission table: which callers may call which kind of route. Row-level rules (whose
 * objects, which client) are enforced again by the service layer and by Postgres RLS.
 */
const hqAny = (c: Caller) => c.type === "hq";
const hqAdmin = (c: Caller) => c.type === "hq" && c.role === "admin";
const hqEditor = (c: Caller) => c.type === "hq" && (c.role === "admin" || c.role === "curator");
const activeAgent = (c: Caller) => c.type === "agent" && c.role !== "isolated";
const internalAgent = (c: Caller) => activeAgent(c) && c.type === "agent" && c.kind === "internal";

export const PERMISSIONS = {
  /** any authenticated caller, including isolated agents reading their own identity */
  authenticated: () => true,
  "hq.session": hqAny,
  "clients.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "clients.write": hqAdmin,
  "agents.read": () => true,
  "agents.write": hqAdmin,
  "keys.manage": hqAdmin,
  "missions.read": (c: Caller) => hqAny(c) || internalAgent(c) || activeAgent(c),
  "missions.write": hqEditor,
  "constants.read": (c: Caller) => hqAny(c) || activeAgent(c),
  "constants.write": hqAdmin,
  "audit.read": hqAny,
  "users.manage": hqAdmin,
} satisfies Record<string, (c: Caller) => boolean>;

export type Permission = keyof typeof PERMISSIONS;

export function can(caller: Caller, permission: Permission): boolean {
  return PERMISSIONS[permission](caller);
}

export function assertCan(caller: Caller, permission: Permission): void {
  if (!can(caller, permission)) {
    throw new ApiError("forbidden", `Your role may not do this (${permission})`);
  }
}
