import { CopyButton } from "@/components/ui/copy-button";

/** A snippet with a copy button. */
export function CodeBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  return (
    <div className="relative rounded-md border border-slate-200 bg-slate-950">
      <div className="absolute top-2 right-2">
        <CopyButton value={code} label={`Copy ${label}`} />
      </div>
      <pre data-testid={testId} className="overflow-x-auto p-4 pr-28 font-mono text-xs leading-relaxed text-slate-100" aria-label={label}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
