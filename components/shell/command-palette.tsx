"use client";

import { Command } from "cmdk";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { useJumpSearch } from "@/lib/console/hooks/search";
import { useIsAdmin } from "./current-user";
import { navItems } from "./nav-items";

/** Whether a key press is typing into a field (where "/" is a character, not a shortcut). */
function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

/** The page's own search box: the first visible search field in the page's main area. */
function pageSearchBox(): HTMLInputElement | null {
  const boxes = document.querySelectorAll<HTMLInputElement>('main input[type="search"]');
  return [...boxes].find((b) => b.offsetParent !== null && !b.disabled) ?? null;
}

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

interface Hit {
  value: string;
  label: string;
  detail?: string | null;
  href: string;
}

/**
 * Jump anywhere: ⌘K (Ctrl+K) opens a palette over agents, contacts, knowledge entries, escalations
 * (searched on the server as the signed-in user may see them) and the console's pages; Enter opens
 * the one chosen. "/" outside a field focuses the page's own search box, or opens the palette on a
 * page without one.
 */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [shortcut, setShortcut] = useState("Ctrl K");
  useEffect(() => setShortcut(isMac() ? "⌘K" : "Ctrl K"), []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setOpen((o) => !o);
        return;
      }
      if (e.key !== "/" || e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      const box = pageSearchBox();
      if (box) {
        box.focus();
        box.select();
      } else setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Meta+K Control+K"
        data-testid="open-palette"
        className="inline-flex h-9 items-center gap-2 rounded-md bg-white px-2.5 text-sm text-slate-500 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:w-64"
      >
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-4 shrink-0" aria-hidden="true">
          <path fillRule="evenodd" d="M9 3.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11ZM2 9a7 7 0 1 1 12.452 4.391l3.328 3.329a.75.75 0 1 1-1.06 1.06l-3.329-3.328A7 7 0 0 1 2 9Z" clipRule="evenodd" />
        </svg>
        <span className="max-sm:sr-only">Jump to…</span>
        <kbd aria-hidden="true" className="ml-auto rounded border border-slate-200 bg-slate-50 px-1.5 font-sans text-xs text-slate-500 max-sm:hidden">
          {shortcut}
        </kbd>
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Jump to" description="Agents, contacts, knowledge entries, escalations and pages." size="lg">
        <Palette onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

function Palette({ onDone }: { onDone: () => void }) {
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 150);
    return () => clearTimeout(t);
  }, [text]);
  const found = useJumpSearch(q);

  const lower = text.trim().toLowerCase();
  const pages: Hit[] = navItems
    .filter((n) => (!n.adminOnly || isAdmin) && (!lower || n.label.toLowerCase().includes(lower)))
    .map((n) => ({ value: `page:${n.href}`, label: n.label, href: n.href }));
  const r = q ? found.data : undefined;
  const groups: { heading: string; hits: Hit[] }[] = [
    { heading: "Agents", hits: (r?.agents ?? []).map((a) => ({ value: `agent:${a.id}`, label: a.name, detail: a.clientName ?? `${a.kind} ${a.role}`, href: `/agents/${a.id}` })) },
    { heading: "Contacts", hits: (r?.contacts ?? []).map((c) => ({ value: `contact:${c.id}`, label: c.name, detail: c.clientName, href: `/contacts/${c.id}` })) },
    { heading: "Knowledge", hits: (r?.knowledge ?? []).map((k) => ({ value: `knowledge:${k.id}`, label: k.title, detail: k.category, href: `/knowledge/${k.id}` })) },
    {
      heading: "Escalations",
      hits: (r?.escalations ?? []).map((e) => ({
        value: `escalation:${e.id}`,
        label: e.question,
        detail: `${e.status} · ${e.severity}`,
        href: `/escalations?${new URLSearchParams({ ...(e.status === "resolved" ? { status: "resolved" } : {}), focus: e.id })}`,
      })),
    },
    { heading: "Pages", hits: pages },
  ];
  const searching = text.trim() !== q || found.isFetching;
  const shown = groups.filter((g) => g.hits.length > 0);
  const any = shown.length > 0;
  // the first result is the one Enter opens, whenever the results change (pages match at once,
  // the server's results arrive later and come first)
  const firstValue = shown[0]?.hits[0]?.value ?? "";
  const [selected, setSelected] = useState("");
  useEffect(() => setSelected(firstValue), [firstValue]);

  const go = (href: string) => {
    onDone();
    router.push(href);
  };

  return (
    <Command label="Jump to" shouldFilter={false} loop value={selected} onValueChange={setSelected} className="text-sm">
      <div className="flex items-center gap-2 rounded-md ring-1 ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-600">
        <Command.Input
          value={text}
          onValueChange={setText}
          placeholder="Type a name or title…"
          aria-label="Search agents, contacts, knowledge, escalations and pages"
          className="h-10 w-full rounded-md border-0 bg-transparent px-3 text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none"
        />
        {searching && q && <Spinner className="mr-3 text-slate-500" label="Searching" />}
      </div>
      <Command.List className="mt-3 max-h-[60vh] overflow-y-auto" aria-label="Results">
        {!any && !searching && <Command.Empty className="px-3 py-6 text-center text-slate-500">Nothing called “{text.trim()}”.</Command.Empty>}
        {found.isError && <p className="px-3 py-2 text-red-700">The search failed; pages are still listed.</p>}
        {shown.map((g) => (
          <Command.Group
            key={g.heading}
            heading={g.heading}
            className="mb-2 [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-slate-600"
          >
            {g.hits.map((h) => (
              <Command.Item
                key={h.value}
                value={h.value}
                onSelect={() => go(h.href)}
                data-testid="palette-item"
                className="flex cursor-pointer items-baseline gap-3 rounded-md px-3 py-2 text-slate-800 data-[selected=true]:bg-indigo-600 data-[selected=true]:text-white"
              >
                <span className="min-w-0 flex-1 truncate">{h.label}</span>
                {h.detail && <span className="max-w-[40%] truncate text-xs opacity-80">{h.detail}</span>}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
      <p className="mt-3 border-t border-slate-100 pt-2 text-xs text-slate-500">↑ ↓ to move, Enter to open, Esc to close. “/” focuses a page’s own search.</p>
    </Command>
  );
}
