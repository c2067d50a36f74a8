import { BlockList } from "node:net";
import { getConfig, type TrustProxy } from "@/lib/config";

/** What every caller counts as when no proxy is trusted: the app cannot tell callers apart. */
export const DIRECT_ADDRESS = "direct";

/**
 * The caller's address as far as it can be trusted. X-Forwarded-For is written by whoever sent the
 * request, so only the entries appended by configured proxies (TRUST_PROXY) are believed: the client
 * is the address the outermost trusted proxy saw. Anything to the left of it is the caller's own
 * claim and never used. Without a trusted proxy every caller is `DIRECT_ADDRESS`.
 */
export function callerAddress(headers: Headers, trust: TrustProxy = getConfig().TRUST_PROXY): string {
  if (trust.mode === "none") return DIRECT_ADDRESS;
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((a) => normalise(a.trim()))
    .filter(Boolean);
  if (!chain.length) return DIRECT_ADDRESS;
  if (trust.mode === "hops") return chain[Math.max(0, chain.length - trust.hops)]!;
  const proxies = blockListOf(trust);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!isTrusted(proxies, chain[i]!)) return chain[i]!;
  }
  // every hop is a trusted proxy: the leftmost is as close to the client as the chain gets
  return chain[0]!;
}

// "::ffff:10.0.0.1" is how a dual-stack socket reports an IPv4 peer
const normalise = (a: string) => a.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1").toLowerCase();

const lists = new WeakMap<TrustProxy, BlockList>();
function blockListOf(trust: Extract<TrustProxy, { mode: "list" }>): BlockList {
  let list = lists.get(trust);
  if (!list) {
    list = new BlockList();
    for (const r of trust.ranges) list.addSubnet(r.address, r.prefix, r.family === 4 ? "ipv4" : "ipv6");
    lists.set(trust, list);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  try {
    return list.check(address, address.includes(":") ? "ipv6" : "ipv4");
  } catch {
    return false; // not an address at all: never a trusted proxy
  }
}
