"use client";

import { usePathname } from "next/navigation";
import { cn } from "@/lib/console/cn";
import { useOpenEscalationCount } from "@/lib/console/hooks/lifecycle";
import { usePendingSuggestionCount } from "@/lib/console/hooks/review";
import { useIsAdmin } from "./current-user";
import { GuardedLink } from "./leave-guard";
import { navItems } from "./nav-items";

const PENDING_CAP = 500;

export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  const isAdmin = useIsAdmin();
  const items = navItems.filter((item) => !item.adminOnly || isAdmin);
  const pending = usePendingSuggestionCount();
  const openEscalations = useOpenEscalationCount();
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5">
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        const Icon = item.icon;
        return (
          <GuardedLink
            key={item.href}
            href={item.href}
            onClick={onNavigate}
            aria-current={active ? "page" : undefined}
            className={cn(
              "group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors",
              active ? "bg-indigo-50 text-indigo-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
            )}
          >
            {Icon && <Icon className={cn("size-5 shrink-0", active ? "text-indigo-600" : "text-slate-400 group-hover:text-slate-500")} />}
            {item.label}
            {item.count === "pendingSuggestions" && pending > 0 && (
              <span
                className="ml-auto rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-semibold text-white tabular-nums"
                aria-label={`${pending} pending`}
                data-testid="nav-pending-count"
              >
                {pending >= PENDING_CAP ? `${PENDING_CAP}+` : pending}
              </span>
            )}
            {item.count === "openEscalations" && openEscalations > 0 && (
              <span
                className="ml-auto rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 tabular-nums"
                aria-label={`${openEscalations} open`}
                data-testid="nav-open-escalations"
              >
                {openEscalations}
              </span>
            )}
          </GuardedLink>
        );
      })}
    </nav>
  );
}
