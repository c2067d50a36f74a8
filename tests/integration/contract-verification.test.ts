import { NextRequest, NextResponse } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineContract } from "@/lib/http/contract";
import { route } from "@/lib/http/route";

// The suites run with MHQ_VERIFY_RESPONSES=1: every success answer is checked against its contract,
// whether the handler returns the data or a ready JSON Response (one that sets cookies, a 200 for a 201).

const contract = defineContract({
  id: "test.verificationProbe", method: "GET", path: "/api/v1/verification-probe", permission: null, summary: "probe",
  response: z.object({ ok: z.literal(true) }).strict(), status: 201,
});

const call = async (handler: () => Promise<unknown>) => {
  const GET = route(contract, handler as never);
  const res = await GET(new NextRequest("http://127.0.0.1/api/v1/verification-probe"), { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
};

describe("answers are checked against their contract in the test suites", () => {
  it("passes a matching answer, returned as data or as a ready Response", async () => {
    expect(await call(async () => ({ ok: true }))).toEqual({ status: 201, body: { ok: true } });
    expect(await call(async () => NextResponse.json({ ok: true }, { status: 200 }))).toEqual({ status: 200, body: { ok: true } });
  });

  it("refuses an answer with a field the contract does not name, in either form", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await call(async () => ({ ok: true, extra: 1 }))).status).toBe(500);
    expect((await call(async () => NextResponse.json({ ok: true, extra: 1 }))).status).toBe(500);
    // error answers are not the contract's response
    expect((await call(async () => NextResponse.json({ error: { code: "x", message: "y" } }, { status: 409 }))).status).toBe(409);
    quiet.mockRestore();
  });
});
