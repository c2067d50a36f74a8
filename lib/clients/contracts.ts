import { z } from "zod";
import { apiViews, defineContract, idParam, timestamp } from "@/lib/http/contract";
import { createClientBody, updateClientBody } from "./schemas";

export const clientView = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    triggerTerms: z.array(z.string()),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict().register(apiViews, { id: "Client" });

const clientParams = z.object({ id: idParam("Client") }).strict();
const one = z.object({ client: clientView }).strict();

export const clientContracts = {
  list: defineContract({
    id: "clients.list",
    method: "GET", path: "/api/v1/clients", permission: "clients.read", summary: "List clients",
    response: z.object({ clients: z.array(clientView) }).strict(),
  }),
  create: defineContract({
    id: "clients.create",
    errors: [
      { code: "conflict", when: "A client with this slug already exists." },
    ],
    method: "POST", path: "/api/v1/clients", permission: "clients.write", summary: "Create a client",
    body: createClientBody, response: one, status: 201,
  }),
  get: defineContract({
    id: "clients.get",
    method: "GET", path: "/api/v1/clients/{id}", permission: "clients.read", summary: "Get a client",
    params: clientParams, response: one,
  }),
  update: defineContract({
    id: "clients.update",
    method: "PATCH", path: "/api/v1/clients/{id}", permission: "clients.write", summary: "Rename a client or change its trigger terms",
    params: clientParams, body: updateClientBody, response: one,
  }),
};
