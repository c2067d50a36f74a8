import { describe, expect, it } from "vitest";
import { fromDatabaseError } from "@/lib/http/errors";

// What a database error becomes in the API: a refusal the caller can act on, a passing outage (503,
// try again), or nothing known (a 500 with a request id).
describe("database errors as the API answers them", () => {
  it("a database that cannot be reached — refused, cut, timed out, shutting down, starting, out of connections — is 503", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "57P01", "57P03", "53300", "08006", "08001"]) {
      const e = fromDatabaseError(Object.assign(new Error("x"), { code }));
      expect([code, e?.status, e?.code]).toEqual([code, 503, "service_unavailable"]);
      expect(e?.message).toMatch(/cannot be reached.*try again/);
    }
  });

  it("a protocol violation and unknown codes are not taken for an outage", () => {
    expect(fromDatabaseError(Object.assign(new Error("x"), { code: "08P01" }))).toBeUndefined();
    expect(fromDatabaseError(Object.assign(new Error("x"), { code: "XX000" }))).toBeUndefined();
    expect(fromDatabaseError(new Error("no code"))).toBeUndefined();
  });

  it("a transaction the database rolled back in a collision (deadlock, serialization) is 503: nothing stored, send it again", () => {
    for (const code of ["40P01", "40001"]) {
      const e = fromDatabaseError(Object.assign(new Error("deadlock detected"), { code }));
      expect([code, e?.status, e?.code]).toEqual([code, 503, "service_unavailable"]);
      expect(e?.message).toMatch(/rolled back; nothing of it was stored\. Send it again/);
    }
  });

  it("refusals stay what they were", () => {
    expect(fromDatabaseError({ code: "42501" })?.status).toBe(403);
    expect(fromDatabaseError({ code: "23505" })?.code).toBe("conflict");
    expect(fromDatabaseError({ code: "22021" })?.code).toBe("validation_failed");
  });
});
