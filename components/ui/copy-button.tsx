"use client";

import { useEffect, useState } from "react";
import { Button, type ButtonProps } from "./button";

/** Copies `value` to the clipboard and says "Copied" for a moment. Works without the Clipboard API. */
export function CopyButton({
  value,
  label = "Copy",
  variant = "secondary",
  size = "sm",
  ...rest
}: { value: string; label?: string } & Omit<ButtonProps, "onClick" | "children" | "value">) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    setState((await copyText(value)) ? "copied" : "failed");
  }

  return (
    <Button variant={variant} size={size} onClick={copy} aria-live="polite" {...rest}>
      {state === "copied" ? (
        <>
          <svg viewBox="0 0 20 20" fill="currentColor" className="size-3.5 text-emerald-600" aria-hidden="true">
            <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-7.5 7.5a1 1 0 0 1-1.4 0l-3.5-3.5a1 1 0 1 1 1.4-1.4l2.8 2.8 6.8-6.8a1 1 0 0 1 1.4 0Z" clipRule="evenodd" />
          </svg>
          Copied
        </>
      ) : state === "failed" ? (
        "Select and copy manually"
      ) : (
        <>
          <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" className="size-3.5" aria-hidden="true">
            <rect x="7" y="7" width="10" height="10" rx="2" />
            <path d="M13 7V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h2" />
          </svg>
          {label}
        </>
      )}
    </Button>
  );
}

export async function copyText(value: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(value);
      return true;
    }
  } catch {
    // permission refused or unavailable: fall through to the legacy path
  }
  try {
    const area = document.createElement("textarea");
    area.value = value;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    // inside an open modal <dialog> the rest of the page is inert; append next to the focus
    const host = (document.activeElement?.closest("dialog") as HTMLElement | null) ?? document.body;
    host.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  } catch {
    return false;
  }
}
