import type { ReactNode } from "react";
import { BrandMark } from "@/components/shell/icons";

/** The centred card the sign-in, setup and invitation pages share. */
export function AuthCard({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-slate-50 to-slate-100 px-4 py-12">
      <div className="mb-8 flex items-center gap-2.5">
        <BrandMark className="size-9 text-indigo-600" />
        <span className="text-xl font-semibold tracking-tight text-slate-900">Memory HQ</span>
      </div>
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white px-6 py-7 shadow-sm sm:px-8">
        <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-500">{description}</p>}
        <div className="mt-6">{children}</div>
      </div>
      {footer && <div className="mt-6 text-center text-sm text-slate-500">{footer}</div>}
    </main>
  );
}
