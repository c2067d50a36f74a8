import type { DecisionContext } from "@/lib/console/memory-types";

/** Why a decision was made: reasoning, alternatives, assumptions, kill criteria. */
export function DecisionContextView({ context }: { context: DecisionContext }) {
  return (
    <dl className="space-y-2 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <div>
        <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Reasoning</dt>
        <dd className="text-slate-800">{context.reasoning}</dd>
      </div>
      {context.alternatives?.length ? (
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Alternatives</dt>
          <dd>
            <ul className="list-disc pl-5 text-slate-700">
              {context.alternatives.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          </dd>
        </div>
      ) : null}
      {context.assumptions?.length ? (
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Assumptions</dt>
          <dd>
            <ul className="list-disc pl-5 text-slate-700">
              {context.assumptions.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          </dd>
        </div>
      ) : null}
      {context.killCriteria && (
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Kill criteria</dt>
          <dd className="text-slate-800">{context.killCriteria}</dd>
        </div>
      )}
    </dl>
  );
}
