import "server-only";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller } from "@/lib/db";
import { ApiError, notFound } from "@/lib/http/errors";
import * as q from "./queries";
import { slugify, type createClientBody, type updateClientBody } from "./schemas";

export async function listClients(caller: Caller) {
  return { clients: await asCaller(caller, (tx) => q.listClients(tx)) };
}

export async function getClient(caller: Caller, id: string) {
  const client = await asCaller(caller, (tx) => q.getClient(tx, { id }));
  if (!client) throw notFound("Client");
  return { client };
}

export async function createClient(caller: Caller, body: z.infer<typeof createClientBody>) {
  const slug = body.slug ?? slugify(body.name);
  const triggerTerms = dedupe(body.triggerTerms ?? []);
  return asCaller(caller, async (tx) => {
    const taken = await tx.query("select 1 from clients where slug = $1", [slug]);
    if (taken.length) throw new ApiError("conflict", `A client with slug "${slug}" already exists`);
    const client = await q.insertClient(tx, { name: body.name, slug, triggerTerms });
    await recordAudit(tx, { action: "client.create", targetType: "client", targetId: client.id, details: { name: client.name } });
    return { client };
  });
}

export async function updateClient(caller: Caller, id: string, body: z.infer<typeof updateClientBody>) {
  return asCaller(caller, async (tx) => {
    const client = await q.updateClient(tx, {
      id,
      name: body.name,
      triggerTerms: body.triggerTerms && dedupe(body.triggerTerms),
    });
    if (!client) throw notFound("Client");
    await recordAudit(tx, { action: "client.update", targetType: "client", targetId: id, details: body });
    return { client };
  });
}

const dedupe = (terms: string[]) => [...new Map(terms.map((t) => [t.toLowerCase(), t])).values()];
