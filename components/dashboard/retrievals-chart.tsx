"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { LEVEL_COLORS, LEVEL_LABELS } from "@/components/retrieval/retrieval-labels";
import type { RetrievalStats } from "@/lib/console/retrieval-types";

const LEVELS = ["none", "local", "shared", "hq"] as const;
const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** Agents' retrievals per day, stacked by the level the smart trigger chose. */
export function RetrievalsChart({ perDay }: { perDay: RetrievalStats["perDay"] }) {
  const data = perDay.map((d) => ({ ...d, label: shortDay.format(new Date(`${d.day}T00:00:00Z`)) }));
  const total = perDay.reduce((s, d) => s + d.total, 0);
  return (
    <figure>
      <div className="h-72 w-full" role="img" aria-label={`Retrievals per day by level: ${total} in ${perDay.length} days`}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={false} />
            <Tooltip cursor={{ fill: "#f1f5f9" }} contentStyle={{ fontSize: 12, borderRadius: 6 }} />
            {/* legend text in the page's text colour: the bars' light colours are too faint to read as text */}
            <Legend wrapperStyle={{ fontSize: 12 }} formatter={(value: string) => <span style={{ color: "#334155" }}>{value}</span>} />
            {LEVELS.map((level) => (
              <Bar key={level} dataKey={level} name={LEVEL_LABELS[level]} stackId="level" fill={LEVEL_COLORS[level]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="sr-only">
        {perDay.map((d) => `${d.day}: ${LEVELS.map((l) => `${d[l]} ${l}`).join(", ")}`).join("; ")}
      </figcaption>
    </figure>
  );
}
