"use client";

import { createContext, useContext, useEffect, useId, useRef, useState, type LabelHTMLAttributes, type ReactNode } from "react";
import { cn } from "@/lib/console/cn";

interface FieldControl {
  id: string;
  describedBy?: string;
  invalid: boolean;
  required?: boolean;
}

const FieldContext = createContext<FieldControl | null>(null);

/** Input, Select and Textarea read their id and aria attributes from the Field around them. */
export function useFieldControl(): FieldControl | null {
  return useContext(FieldContext);
}

export function Label({ className, ...rest }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn("block text-sm font-medium text-slate-700", className)} {...rest} />;
}

export interface FieldProps {
  label: ReactNode;
  /** id of the control; generated when left out */
  id?: string;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  className?: string;
  children: ReactNode;
}

/**
 * A labelled form control with an optional hint and error text, wired up for screen readers. An error
 * goes away as soon as the control is edited (the user is fixing it) and comes back only with the
 * next submit of the form, if the value is still refused.
 */
export function Field({ label, id, hint, error, required, className, children }: FieldProps) {
  const generated = useId();
  const ref = useRef<HTMLDivElement>(null);
  // the error the user has edited the control since; shown again when the form is submitted
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    const form = ref.current?.closest("form");
    if (!form) return;
    const reset = () => setDismissed(null);
    form.addEventListener("submit", reset, true);
    return () => form.removeEventListener("submit", reset, true);
  }, []);
  const shown = error && error !== dismissed ? error : null;
  const controlId = id ?? `field-${generated}`;
  const hintId = hint && !shown ? `${controlId}-hint` : undefined;
  const errorId = shown ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldContext.Provider value={{ id: controlId, describedBy, invalid: Boolean(shown), required }}>
      <div ref={ref} className={cn("space-y-1.5", className)} onChange={() => error && setDismissed(error)}>
        <Label htmlFor={controlId}>
          {label}
          {required && <span className="ml-0.5 text-red-600" aria-hidden="true">*</span>}
        </Label>
        {children}
        {hint && !shown && (
          <p id={hintId} className="text-xs text-slate-500">
            {hint}
          </p>
        )}
        {shown && (
          <p id={errorId} className="text-xs font-medium text-red-600">
            {shown}
          </p>
        )}
      </div>
    </FieldContext.Provider>
  );
}
