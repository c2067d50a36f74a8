import { describe, expect, it } from "vitest";
import { csvCell } from "@/lib/audit/csv";

describe("csvCell", () => {
  it("quotes every text cell, doubling its quotes, and leaves nulls empty", () => {
    expect(csvCell("Sunrise Plumbing")).toBe('"Sunrise Plumbing"');
    expect(csvCell('Alpha, "the first"')).toBe('"Alpha, ""the first"""');
    expect(csvCell("note;=cmd|' /C calc'!A0;x")).toBe(`"note;=cmd|' /C calc'!A0;x"`);
    expect(csvCell("two\r\nlines")).toBe('"two\r\nlines"');
    expect(csvCell(42)).toBe('"42"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("prefixes a quote to whatever a spreadsheet would run as a formula", () => {
    for (const formula of ["=1+1", "+1", "-1+2", "@SUM(A1)", "＝1+1", "＋1", "－1", "＠SUM(A1)", " =1+1", "\u3000＝1", "\t=1", "\r=1", "\n1", "\u0001=1"]) {
      expect(csvCell(formula), JSON.stringify(formula)).toBe(`"'${formula}"`);
    }
    for (const plain of ["a=1", "2026-01-01T00:00:00.000Z", "{\"a\":1}", "note"]) {
      expect(csvCell(plain), plain).toBe(`"${plain.replace(/"/g, '""')}"`);
    }
  });
});
