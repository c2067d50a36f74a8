import { CopyButton } from "@/components/ui/copy-button";

/** A snippet with a copy button above it (never over the code, on any width). */
export function CodeBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  return (
    <div className="overflow-hidden rounded-md border border-slate-200 bg-slate-950">
      <div className="flex items-center justify-between gap-2 border-b border-slate-800 px-3 py-1.5">
        <span className="truncate text-xs text-slate-400">{label}</span>
        <CopyButton value={code} label="Copy" />
      </div>
      <pre tabIndex={0} data-testid={testId} className="overflow-x-auto p-4 font-mono text-xs leading-relaxed text-slate-100" aria-label={label}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
