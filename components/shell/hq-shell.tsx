"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { SessionUser } from "@/lib/console/types";
import { CommandPalette } from "./command-palette";
import { CurrentUserProvider } from "./current-user";
import { BrandMark, MenuIcon } from "./icons";
import { GuardedLink, LeaveGuard } from "./leave-guard";
import { navItems } from "./nav-items";
import { SidebarNav } from "./sidebar-nav";
import { UserMenu } from "./user-menu";

function Brand() {
  return (
    <GuardedLink href="/agents" className="flex items-center gap-2.5 px-2">
      <BrandMark className="size-7 text-indigo-600" />
      <span className="text-[15px] font-semibold tracking-tight text-slate-900">Memory HQ</span>
    </GuardedLink>
  );
}

/** The section the page belongs to, for the phone's header (the sidebar says it on wider screens). */
function useSectionLabel(): string | undefined {
  const pathname = usePathname();
  return navItems.find((item) => pathname === item.href || pathname.startsWith(`${item.href}/`))?.label;
}

const MOBILE_NAV_ID = "mobile-nav";

/**
 * The navigation on screens without the sidebar: a modal panel from the left. While it is open the page
 * behind it takes no focus or clicks, Esc or a click beside it closes it, and the focus goes back to the
 * menu button (the browser's modal dialog does all three).
 */
function MobileNav({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // the page you are on first, so Tab goes on from where you are
      dialog.querySelector<HTMLElement>('nav a[aria-current="page"]')?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      id={MOBILE_NAV_ID}
      aria-label="Navigation"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      className="fixed inset-y-0 left-0 m-0 h-full max-h-full w-64 max-w-[85vw] bg-white p-0 shadow-xl backdrop:bg-slate-900/30 lg:hidden"
    >
      <div className="flex h-full flex-col overflow-y-auto px-3 py-4">
        <div className="mb-6 flex items-center justify-between gap-2">
          <Brand />
          <button
            type="button"
            aria-label="Close menu"
            onClick={onClose}
            className="rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        </div>
        {open && <SidebarNav onNavigate={onClose} />}
      </div>
    </dialog>
  );
}

/**
 * The signed-in console: sidebar navigation, top bar with the user, and the page. The sidebar's
 * column runs the page's whole height (its contents stay in view as the page scrolls).
 */
export function HqShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  const section = useSectionLabel();
  return (
    <CurrentUserProvider user={user}>
      <LeaveGuard>
        <div className="min-h-screen lg:flex">
          {/* the first stop for keyboard users: past the navigation straight to the page */}
          <a
            href="#main"
            onClick={(e) => {
              e.preventDefault();
              document.getElementById("main")?.focus();
            }}
            className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow-lg ring-2 ring-indigo-600 focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
          >
            Skip to main content
          </a>
          <aside className="hidden w-60 shrink-0 border-r border-slate-200 bg-white lg:block">
            <div className="sticky top-0 flex h-screen flex-col overflow-y-auto px-3 py-4">
              <div className="mb-6">
                <Brand />
              </div>
              <SidebarNav />
              <p className="mt-auto px-3 pt-4 text-xs text-slate-500">Governed memory for AI agents</p>
            </div>
          </aside>

          <MobileNav open={mobileOpen} onClose={() => setMobileOpen(false)} />

          <div className="min-w-0 flex-1">
            <header className="sticky top-0 z-20 flex h-14 items-center justify-between gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
              <button
                type="button"
                className="-ml-1 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 lg:hidden"
                aria-label="Open menu"
                aria-expanded={mobileOpen}
                aria-controls={MOBILE_NAV_ID}
                onClick={() => setMobileOpen(true)}
              >
                <MenuIcon className="size-5" />
              </button>
              {/* where you are, on screens without the sidebar */}
              <p className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-900 lg:hidden" data-testid="header-section">
                {section}
              </p>
              <div className="flex-none lg:flex-1">
                <CommandPalette />
              </div>
              <UserMenu />
            </header>
            <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 outline-none sm:px-6 sm:py-8 lg:px-8">
              {children}
            </main>
          </div>
        </div>
      </LeaveGuard>
    </CurrentUserProvider>
  );
}
