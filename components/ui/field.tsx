"use client";

import { createContext, useContext, useId, type LabelHTMLAttributes, type ReactNode } from "react";
import { cn } from "@/lib/client/cn";

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

/** A labelled form control with an optional hint and error text, wired up for screen readers. */
export function Field({ label, id, hint, error, required, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldContext.Provider value={{ id: controlId, describedBy, invalid: Boolean(error), required }}>
      <div className={cn("space-y-1.5", className)}>
        <Label htmlFor={controlId}>
          {label}
          {required && <span className="ml-0.5 text-red-600" aria-hidden="true">*</span>}
        </Label>
        {children}
        {hint && !error && (
          <p id={hintId} className="text-xs text-slate-500">
            {hint}
          </p>
        )}
        {error && (
          <p id={errorId} className="text-xs font-medium text-red-600">
            {error}
          </p>
        )}
      </div>
    </FieldContext.Provider>
  );
}
