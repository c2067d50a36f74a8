// GET /api/v1/openapi.json — the OpenAPI document, generated from the same zod schemas the handlers parse
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { route } from "@/lib/http/route";
import { systemContracts } from "@/lib/http/system-contracts";

export const GET = route(systemContracts.openapi, async () => buildOpenApiDocument());
