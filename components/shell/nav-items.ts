import type { ComponentType, SVGProps } from "react";
import { AgentsIcon, AuditIcon, DocsIcon, LockIcon, UsersIcon } from "./icons";
import { ContactsIcon, ReviewIcon } from "@/components/review/icons";
import { DashboardIcon, RetrievalIcon } from "@/components/retrieval/icons";
import { BookIcon } from "@/components/knowledge/icons";
import { EscalationIcon, OutcomesIcon } from "@/components/lifecycle/icons";

export interface NavItem {
  label: string;
  href: string;
  icon?: ComponentType<SVGProps<SVGSVGElement>>;
  /** shown to HQ admins only */
  adminOnly?: boolean;
  /** a live count beside the label */
  count?: "pendingSuggestions" | "openEscalations";
}

/**
 * The console's left navigation, in order. Add a section by appending an entry here once its page
 * exists (e.g. `{ label: "Knowledge", href: "/knowledge", icon: BookIcon }`); an item is active on
 * its href and every path below it.
 */
export const navItems: NavItem[] = [
  { label: "Dashboard", href: "/dashboard", icon: DashboardIcon },
  { label: "Agents", href: "/agents", icon: AgentsIcon },
  { label: "Review queue", href: "/review", icon: ReviewIcon, count: "pendingSuggestions" },
  { label: "Contacts", href: "/contacts", icon: ContactsIcon },
  { label: "Knowledge", href: "/knowledge", icon: BookIcon },
  { label: "Escalations", href: "/escalations", icon: EscalationIcon, count: "openEscalations" },
  { label: "Outcomes", href: "/outcomes", icon: OutcomesIcon },
  { label: "Retrieval", href: "/retrieval", icon: RetrievalIcon },
  { label: "Locked constants", href: "/constants", icon: LockIcon },
  { label: "Audit", href: "/audit", icon: AuditIcon },
  { label: "Users", href: "/users", icon: UsersIcon, adminOnly: true },
  { label: "Docs", href: "/docs", icon: DocsIcon },
];
