"use client";

import Link from "next/link";
import { useState, type ReactNode } from "react";
import type { SessionUser } from "@/lib/console/types";
import { CommandPalette } from "./command-palette";
import { CurrentUserProvider } from "./current-user";
import { BrandMark, MenuIcon } from "./icons";
import { SidebarNav } from "./sidebar-nav";
import { UserMenu } from "./user-menu";

function Brand() {
  return (
    <Link href="/agents" className="flex items-center gap-2.5 px-2">
      <BrandMark className="size-7 text-indigo-600" />
      <span className="text-[15px] font-semibold tracking-tight text-slate-900">Memory HQ</span>
    </Link>
  );
}

/** The signed-in console: sidebar navigation, top bar with the user, and the page. */
export function HqShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  return (
    <CurrentUserProvider user={user}>
      <div className="min-h-screen">
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
        <aside className="fixed inset-y-0 left-0 z-30 hidden w-60 flex-col border-r border-slate-200 bg-white px-3 py-4 lg:flex">
          <div className="mb-6">
            <Brand />
          </div>
          <SidebarNav />
          <p className="mt-auto px-3 text-xs text-slate-500">Governed memory for AI agents</p>
        </aside>

        {mobileOpen && (
          <div className="fixed inset-0 z-40 lg:hidden">
            <button type="button" aria-label="Close menu" className="absolute inset-0 bg-slate-900/30" onClick={() => setMobileOpen(false)} />
            <div className="absolute inset-y-0 left-0 w-64 bg-white px-3 py-4 shadow-xl">
              <div className="mb-6">
                <Brand />
              </div>
              <SidebarNav onNavigate={() => setMobileOpen(false)} />
            </div>
          </div>
        )}

        <div className="lg:pl-60">
          <header className="sticky top-0 z-20 flex h-14 items-center justify-between gap-4 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
            <button
              type="button"
              className="-ml-1 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 lg:hidden"
              aria-label="Open menu"
              onClick={() => setMobileOpen(true)}
            >
              <MenuIcon className="size-5" />
            </button>
            <div className="flex flex-1 justify-end sm:justify-start">
              <CommandPalette />
            </div>
            <UserMenu />
          </header>
          <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 outline-none sm:px-6 sm:py-8 lg:px-8">{children}</main>
        </div>
      </div>
    </CurrentUserProvider>
  );
}
