import type { ComponentType, SVGProps } from "react";
import { AgentsIcon, AuditIcon, LockIcon, UsersIcon } from "./icons";

export interface NavItem {
  label: string;
  href: string;
  icon?: ComponentType<SVGProps<SVGSVGElement>>;
  /** shown to HQ admins only */
  adminOnly?: boolean;
}

/**
 * The console's left navigation, in order. Add a section by appending an entry here once its page
 * exists (e.g. `{ label: "Knowledge", href: "/knowledge", icon: BookIcon }`); an item is active on
 * its href and every path below it.
 */
export const navItems: NavItem[] = [
  { label: "Agents", href: "/agents", icon: AgentsIcon },
  { label: "Locked constants", href: "/constants", icon: LockIcon },
  { label: "Audit", href: "/audit", icon: AuditIcon },
  { label: "Users", href: "/users", icon: UsersIcon, adminOnly: true },
];
