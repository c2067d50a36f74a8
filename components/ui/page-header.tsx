import { GuardedLink } from "@/components/shell/leave-guard";
import type { ReactNode } from "react";
import { cn } from "@/lib/console/cn";

export function PageHeader({
  title,
  description,
  actions,
  back,
  meta,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** buttons on the right */
  actions?: ReactNode;
  /** a link above the title, e.g. `{ href: "/agents", label: "Agents" }` */
  back?: { href: string; label: string };
  /** badges or facts under the title */
  meta?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("mb-6", className)}>
      {back && (
        <GuardedLink href={back.href} className="mb-2 inline-flex items-center gap-1 text-sm text-slate-500 hover:text-slate-800">
          <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
            <path fillRule="evenodd" d="M11.78 5.22a.75.75 0 0 1 0 1.06L8.06 10l3.72 3.72a.75.75 0 1 1-1.06 1.06l-4.25-4.25a.75.75 0 0 1 0-1.06l4.25-4.25a.75.75 0 0 1 1.06 0Z" clipRule="evenodd" />
          </svg>
          {back.label}
        </GuardedLink>
      )}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere text-slate-900">{title}</h1>
          {description && <p className="mt-1 max-w-3xl text-sm wrap-anywhere text-slate-500">{description}</p>}
          {meta && <div className="mt-2 flex flex-wrap items-center gap-2">{meta}</div>}
        </div>
        {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
      </div>
    </div>
  );
}
