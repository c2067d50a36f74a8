import { z } from "zod";
import { ApiError, ClientClosedRequestError } from "./errors";
import { decodeUtf8, parseGuardedJson } from "./input-guards";

/** Reads a JSON body, refusing it (413) past `maxBytes` before parsing anything. */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const type = req.headers.get("content-type") ?? "";
  if (type && !type.includes("application/json")) {
    throw new ApiError("unsupported_media_type", "Send the body as application/json");
  }
  const text = await readLimited(req, maxBytes);
  if (text.trim() === "") return {};
  return parseGuardedJson(text);
}

const noFields = z.object({}).strict();

/**
 * For a route that takes no body: nothing, or an empty JSON object, is accepted; anything else is
 * refused by the same rules as every body (413 past `maxBytes`, 415 when not JSON, 422 for any field).
 */
export async function refuseBody(req: Request, maxBytes: number): Promise<void> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(req, maxBytes);
  if (text.trim() === "") return;
  const type = req.headers.get("content-type") ?? "";
  if (type && !type.includes("application/json")) {
    throw new ApiError("unsupported_media_type", "Send the body as application/json");
  }
  noFields.parse(parseGuardedJson(text));
}

async function readLimited(req: Request, maxBytes: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (err) {
      // the request stream fails only when the connection does: the client went away mid-body
      throw new ClientClosedRequestError(err);
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return decodeUtf8(Buffer.concat(chunks));
}

const tooLarge = (max: number) =>
  new ApiError("payload_too_large", `The body is larger than the limit of ${max} bytes`);
