import { describe, expect, it } from "vitest";
import { parsePgTimestamp } from "@/lib/db/timestamps";
import { apiTimestamp, sequenceCursor } from "@/lib/http/input-guards";

describe("reading Postgres' text form of a time (parsePgTimestamp)", () => {
  it.each([
    ["0001-01-01 00:00:00+00", "0001-01-01T00:00:00.000Z"],
    ["0042-02-03 04:05:06.5+00", "0042-02-03T04:05:06.500Z"],
    ["0099-12-31 23:59:59.999999+00", "0099-12-31T23:59:59.999Z"],
    ["2024-03-01 10:00:00.123456+05:30", "2024-03-01T04:30:00.123Z"],
    ["2024-02-29 23:00:00-01", "2024-03-01T00:00:00.000Z"],
    // the local mean time of an old date in a named zone carries seconds
    ["0001-01-01 00:19:32+00:19:32", "0001-01-01T00:00:00.000Z"],
    ["0001-12-31 23:00:00+00 BC", "0000-12-31T23:00:00.000Z"],
    ["9999-12-31 23:59:59.999+00", "9999-12-31T23:59:59.999Z"],
    ["10000-01-01 13:59:59+00", "+010000-01-01T13:59:59.000Z"],
    // a date, and a timestamp without a zone (read as UTC)
    ["0007-07-07", "0007-07-07T00:00:00.000Z"],
    ["0050-06-15 12:00:00", "0050-06-15T12:00:00.000Z"],
  ])("%s → %s", (text, iso) => {
    expect(parsePgTimestamp(text).toISOString()).toBe(iso);
  });

  it("answers what it cannot read as an invalid date, as the drivers did", () => {
    expect(Number.isNaN(parsePgTimestamp("infinity").getTime())).toBe(true);
  });
});

describe("times the API takes (apiTimestamp)", () => {
  it("hands on the instant in UTC, to the millisecond", () => {
    expect(apiTimestamp.parse("2024-03-01T10:00:00.123456+05:30")).toBe("2024-03-01T04:30:00.123Z");
    expect(apiTimestamp.parse("0001-01-01T00:00:00Z")).toBe("0001-01-01T00:00:00.000Z");
    expect(apiTimestamp.parse("9999-12-31T23:59:59.999Z")).toBe("9999-12-31T23:59:59.999Z");
    expect(apiTimestamp.parse("0001-01-01T01:00:00+01:00")).toBe("0001-01-01T00:00:00.000Z");
  });

  it("refuses an instant outside years 0001–9999 once in UTC, and what is not ISO 8601 with an offset", () => {
    for (const v of ["9999-12-31T23:59:59-14:00", "0001-01-01T00:30:00+01:00", "0000-06-01T00:00:00Z", "2024-01-01 00:00:00+00", "2024-01-01T00:00:00", "2024-02-30T00:00:00Z"]) {
      expect(apiTimestamp.safeParse(v).success, v).toBe(false);
    }
  });
});

describe("a listing's cursor (sequenceCursor)", () => {
  const encode = (text: string) => Buffer.from(text).toString("base64url");
  it("decodes the cursors pages give out", () => {
    expect(sequenceCursor.parse(encode("0001-01-01T00:00:00.000000Z|7"))).toEqual({ occurredAt: "0001-01-01T00:00:00.000000Z", seq: 7 });
  });
  it.each(["2024-01-01 00:00:00+99|1", "2024-01-01 00:00:00+00|1", "10000-01-01T00:00:00Z|1", "2024-13-01T00:00:00Z|1", "2024-01-01T00:00:00Z|-1", "2024-01-01T00:00:00Z|1e3", "2024-01-01T00:00:00Z", "|"])(
    "refuses %s",
    (text) => {
      expect(sequenceCursor.safeParse(encode(text)).success).toBe(false);
    },
  );
});
