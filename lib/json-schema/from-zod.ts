import { z } from "zod";
import type { JsonSchema } from "./index";

/**
 * A contract's zod schema as JSON Schema, the one conversion behind the OpenAPI document and the
 * client package's declarations. Both describe the input side: requests as the client sends them,
 * answers as they travel (dates as ISO strings, before the client would parse them).
 */
export function fromZod(schema: z.ZodType, metadata?: z.core.$ZodRegistry<Record<string, unknown>>): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12", ...(metadata ? { metadata } : {}) }) as JsonSchema;
}
