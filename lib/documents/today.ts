/** The calendar day (YYYY-MM-DD) it is at `now` in the IANA time zone `timeZone`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  // a year before 1000 is formatted with fewer than four digits ("999"): pad it, as ISO dates are
  return `${String(parts.year).padStart(4, "0")}-${parts.month}-${parts.day}`;
}
