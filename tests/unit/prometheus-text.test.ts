import { describe, expect, it } from "vitest";
import { parsePrometheusText, sampleValue } from "../helpers/prometheus-text";

// The reader the metrics tests check the endpoint's answer with: it must refuse what a scraper refuses.

const valid = [
  "# HELP mhq_x_total Things, with a \\\\ and a \\n in the help",
  "# TYPE mhq_x_total counter",
  'mhq_x_total{route="/api/v1/memories/{id}",method="GET",q="a \\"b\\" \\\\ \\n"} 3',
  "# TYPE mhq_d_seconds histogram",
  'mhq_d_seconds_bucket{le="0.1",route="/a"} 1',
  'mhq_d_seconds_bucket{le="1",route="/a"} 2',
  'mhq_d_seconds_bucket{le="+Inf",route="/a"} 2',
  'mhq_d_seconds_sum{route="/a"} 0.35',
  'mhq_d_seconds_count{route="/a"} 2',
  "# TYPE mhq_g gauge",
  "mhq_g NaN",
  "",
].join("\n");

describe("the Prometheus text reader", () => {
  it("reads a valid exposition", () => {
    const families = parsePrometheusText(valid);
    expect(families.get("mhq_x_total")?.type).toBe("counter");
    expect(sampleValue(families, "mhq_x_total", { method: "GET" })).toBe(3);
    expect(families.get("mhq_x_total")!.samples[0]!.labels.q).toBe('a "b" \\ \n');
    expect(sampleValue(families, "mhq_d_seconds_count", { route: "/a" })).toBe(2);
    expect(Number.isNaN(sampleValue(families, "mhq_g"))).toBe(true);
  });

  it("refuses what a scraper refuses", () => {
    const broken: [string, string][] = [
      ["no TYPE", "mhq_y 1\n"],
      ["bad name", "# TYPE 1mhq counter\n1mhq 1\n"],
      ["bad escape", '# TYPE mhq_y counter\nmhq_y{a="\\x"} 1\n'],
      ["unquoted label", "# TYPE mhq_y counter\nmhq_y{a=b} 1\n"],
      ["bad value", "# TYPE mhq_y gauge\nmhq_y one\n"],
      ["Nan spelling", "# TYPE mhq_y gauge\nmhq_y Nan\n"],
      ["duplicate sample", "# TYPE mhq_y counter\nmhq_y 1\nmhq_y 2\n"],
      ["TYPE twice", "# TYPE mhq_y counter\n# TYPE mhq_y counter\n"],
      ["no final line feed", "# TYPE mhq_y counter\nmhq_y 1"],
      ["not cumulative", valid.replace('le="1",route="/a"} 2', 'le="1",route="/a"} 0')],
      ["+Inf not the count", valid.replace('mhq_d_seconds_count{route="/a"} 2', 'mhq_d_seconds_count{route="/a"} 5')],
    ];
    for (const [why, text] of broken) expect(() => parsePrometheusText(text), why).toThrow();
  });
});
