import { z } from "zod";
import { defineContract } from "./contract";

export const systemContracts = {
  health: defineContract({
    id: "system.health",
    method: "GET", path: "/api/health", permission: null, summary: "Liveness and the database transport in use", queued: false,
    response: z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgres"]) }).strict(),
  }),
  openapi: defineContract({
    id: "system.openapi",
    method: "GET", path: "/api/v1/openapi.json", permission: null, summary: "This document",
    response: z.record(z.string(), z.unknown()),
  }),
};
