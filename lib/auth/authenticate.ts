import "server-only";
import { timingSafeEqual } from "node:crypto";
import { getConfig } from "@/lib/config";
import { asSystemStatements } from "@/lib/db";
import { admissionLimitsOf } from "@/lib/agents/limits";
import { admission } from "@/lib/http/admission";
import { ApiError } from "@/lib/http/errors";
import { bearerCallerKey } from "@/server/admission.mjs";
import type { Caller } from "./caller";
import * as q from "./queries";
import { AGENT_KEY_PREFIX, KEY_LOOKUP_LENGTH, safeEqual, sha256 } from "./secrets";
import { getSessionUser, type CookieReader } from "./session";

const KEY_TOUCH_AFTER_MS = 60_000;

/**
 * Who is calling: a bearer key (agent key or ADMIN_API_KEY) or an HQ session cookie.
 * Throws 401 when neither identifies anyone.
 */
export async function authenticate(req: Request, cookies: CookieReader): Promise<Caller> {
  const header = req.headers.get("authorization");
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthorized("The Authorization header must be 'Bearer <key>'");
    return authenticateKey(m[1]!);
  }
  const user = await getSessionUser(cookies);
  if (user) return user;
  throw unauthorized("Sign in, or send an API key as 'Authorization: Bearer <key>'");
}

export async function authenticateKey(key: string): Promise<Caller> {
  const adminKey = getConfig().ADMIN_API_KEY;
  if (adminKey && safeEqual(key, adminKey)) {
    return { type: "hq", userId: null, name: "admin API key", email: null, role: "admin" };
  }
  if (!key.startsWith(AGENT_KEY_PREFIX) || key.length < KEY_LOOKUP_LENGTH + 8) {
    throw unauthorized("Unknown or revoked API key");
  }
  const hash = Buffer.from(sha256(key), "hex");
  // two statements at most, each on its own: a transaction would add two round trips to every request
  const db = await asSystemStatements();
  const candidates = await q.findKeysByPrefix(db, { prefix: key.slice(0, KEY_LOOKUP_LENGTH) });
  const match = candidates.find((c) => timingSafeEqual(Buffer.from(c.keyHash, "hex"), hash));
  if (!match) throw unauthorized("Unknown or revoked API key");
  // the caller holds the whole key, so saying why it no longer works tells them nothing new
  if (match.revoked) throw unauthorized("This API key was revoked; an HQ admin can issue a new one");
  if (match.agentDisabled) throw unauthorized(`The agent "${match.name}" is disabled; an HQ admin can enable it`);
  // from now on admission counts this key's requests against the agent's own limits, if it has any
  admission().setCallerLimits(bearerCallerKey(key), admissionLimitsOf(match.customLimits));
  if (!match.lastUsedAt || Date.now() - new Date(match.lastUsedAt).getTime() > KEY_TOUCH_AFTER_MS) {
    await q.touchKey(db, { keyId: match.keyId });
  }
  return {
    type: "agent",
    agentId: match.agentId,
    name: match.name,
    kind: match.kind,
    role: match.role,
    clientId: match.clientId,
    kbAccess: match.kbAccess,
  };
}

const unauthorized = (message: string) => new ApiError("unauthorized", message);
