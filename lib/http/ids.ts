import { notFound } from "./errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (v: string) => UUID.test(v);

/** An id from a path: anything that is not a UUID cannot name an object, so it is a 404. */
export function pathId(value: string | undefined, what: string): string {
  if (!value || !isUuid(value)) throw notFound(what);
  return value.toLowerCase();
}
