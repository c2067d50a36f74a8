// GET /api/v1/openapi.json — the OpenAPI document, generated from the same zod schemas the handlers parse
import { json, route } from "@/lib/http/route";
import { buildOpenApiDocument } from "@/lib/http/openapi";

export const GET = route({ permission: null }, async () => json(buildOpenApiDocument()));
