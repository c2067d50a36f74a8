// A strict reader of the Prometheus text exposition format (version 0.0.4), as a scraper reads it:
// every line is a HELP or TYPE comment, another comment, a blank line or a sample; names, label names,
// escapes and numbers follow the format's grammar (NaN, +Inf and -Inf spelled as the format spells them); each family is declared once, before its samples;
// a histogram's buckets are cumulative and end with le="+Inf" equal to its _count. Any deviation throws
// with the line it found, so a test that parses the endpoint's answer proves a scraper can read it.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const NUMBER = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function parseNumber(text: string, line: string): number {
  if (!NUMBER.test(text)) throw new Error(`not a sample value: ${JSON.stringify(text)} in ${JSON.stringify(line)}`);
  if (/^[+]?Inf$/.test(text)) return Infinity;
  if (text === "-Inf") return -Infinity;
  return Number(text);
}

/** `name{a="x",b="y"} value [timestamp]` */
function parseSample(line: string): Sample {
  let i = 0;
  while (i < line.length && /[a-zA-Z0-9_:]/.test(line[i]!)) i++;
  const name = line.slice(0, i);
  if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in ${JSON.stringify(line)}`);
  const labels: Record<string, string> = {};
  if (line[i] === "{") {
    i++;
    while (line[i] !== "}") {
      const start = i;
      while (i < line.length && /[a-zA-Z0-9_]/.test(line[i]!)) i++;
      const label = line.slice(start, i);
      if (!LABEL_NAME.test(label)) throw new Error(`bad label name in ${JSON.stringify(line)}`);
      if (line[i] !== "=" || line[i + 1] !== '"') throw new Error(`expected ="…" after ${label} in ${JSON.stringify(line)}`);
      i += 2;
      let value = "";
      for (;;) {
        const ch = line[i];
        if (ch === undefined) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
        if (ch === '"') break;
        if (ch === "\\") {
          const next = line[i + 1];
          if (next === "\\" || next === '"') value += next;
          else if (next === "n") value += "\n";
          else throw new Error(`bad escape \\${next} in ${JSON.stringify(line)}`);
          i += 2;
        } else {
          value += ch;
          i++;
        }
      }
      i++; // the closing quote
      if (label in labels) throw new Error(`label ${label} twice in ${JSON.stringify(line)}`);
      labels[label] = value;
      if (line[i] === ",") i++;
      else if (line[i] !== "}") throw new Error(`expected , or } in ${JSON.stringify(line)}`);
    }
    i++;
  }
  const rest = line.slice(i);
  const m = /^[ \t]+(\S+)(?:[ \t]+(-?\d+))?[ \t]*$/.exec(rest);
  if (!m) throw new Error(`expected a value after the labels in ${JSON.stringify(line)}`);
  return { name, labels, value: parseNumber(m[1]!, line) };
}

/** The family a sample belongs to: a histogram's _bucket, _sum and _count, a summary's _sum and _count. */
function familyOf(sample: string, families: Map<string, Family>): Family | undefined {
  const exact = families.get(sample);
  if (exact) return exact;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!sample.endsWith(suffix)) continue;
    const f = families.get(sample.slice(0, -suffix.length));
    if (f && (f.type === "histogram" || (f.type === "summary" && suffix !== "_bucket"))) return f;
  }
  return undefined;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (text.length && !text.endsWith("\n")) throw new Error("the exposition must end with a line feed");
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      const m = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!m) continue; // any other comment
      const [, kind, name, rest = ""] = m;
      if (!METRIC_NAME.test(name!)) throw new Error(`bad metric name in ${JSON.stringify(line)}`);
      let family = families.get(name!);
      if (kind === "TYPE") {
        if (!TYPES.has(rest.trim())) throw new Error(`unknown type in ${JSON.stringify(line)}`);
        if (family?.samples.length) throw new Error(`TYPE of ${name} after its samples`);
        if (family && family.type !== "untyped") throw new Error(`${name} declared twice`);
        family ??= { name: name!, type: "untyped", samples: [] };
        family.type = rest.trim() as Family["type"];
        families.set(name!, family);
      } else {
        if (family?.help !== undefined) throw new Error(`HELP of ${name} twice`);
        family ??= { name: name!, type: "untyped", samples: [] };
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ""))) throw new Error(`bad escape in ${JSON.stringify(line)}`);
        family.help = rest;
        families.set(name!, family);
      }
      continue;
    }
    const sample = parseSample(line);
    const family = familyOf(sample.name, families);
    if (!family) throw new Error(`sample ${sample.name} without a TYPE before it`);
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(key)) throw new Error(`sample twice: ${line}`);
    seen.add(key);
    family.samples.push(sample);
  }
  for (const f of families.values()) if (f.type === "histogram") checkHistogram(f);
  return families;
}

function checkHistogram(f: Family) {
  const series = new Map<string, { buckets: { le: number; value: number }[]; count?: number; sum?: number }>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name === `${f.name}_bucket`) {
      if (le === undefined) throw new Error(`${f.name}_bucket without le`);
      entry.buckets.push({ le: parseNumber(le, le), value: s.value });
    } else if (s.name === `${f.name}_count`) entry.count = s.value;
    else if (s.name === `${f.name}_sum`) entry.sum = s.value;
    else throw new Error(`${s.name} is not part of histogram ${f.name}`);
  }
  for (const [key, e] of series) {
    const last = e.buckets[e.buckets.length - 1];
    if (!last || last.le !== Infinity) throw new Error(`${f.name}${key}: no le="+Inf" bucket`);
    if (e.count === undefined || e.sum === undefined) throw new Error(`${f.name}${key}: _count or _sum missing`);
    if (last.value !== e.count) throw new Error(`${f.name}${key}: +Inf bucket ${last.value} ≠ count ${e.count}`);
    for (let i = 1; i < e.buckets.length; i++) {
      if (e.buckets[i]!.le <= e.buckets[i - 1]!.le) throw new Error(`${f.name}${key}: buckets out of order`);
      if (e.buckets[i]!.value < e.buckets[i - 1]!.value) throw new Error(`${f.name}${key}: buckets not cumulative`);
    }
  }
}

/** The value of the sample `name` whose labels include `labels` (0 when there is none yet). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return 0;
}
