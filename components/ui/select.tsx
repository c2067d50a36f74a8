"use client";

import type { SelectHTMLAttributes } from "react";
import { controlClasses } from "./control-classes";
import { useFieldControl } from "./field";

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  invalid?: boolean;
  /** options to render; or pass <option> children */
  options?: readonly SelectOption[];
  /** an empty first option, e.g. "Choose a client…" */
  placeholder?: string;
}

export function Select({ invalid, className, id, options, placeholder, children, ...rest }: SelectProps) {
  const field = useFieldControl();
  const isInvalid = invalid ?? field?.invalid ?? false;
  return (
    <select
      id={id ?? field?.id}
      aria-invalid={isInvalid || undefined}
      aria-describedby={rest["aria-describedby"] ?? field?.describedBy}
      required={rest.required ?? field?.required}
      className={controlClasses(isInvalid, `h-9 pr-8 ${className ?? ""}`)}
      {...rest}
    >
      {placeholder !== undefined && (
        <option value="" disabled>
          {placeholder}
        </option>
      )}
      {options?.map((o) => (
        <option key={o.value} value={o.value} disabled={o.disabled}>
          {o.label}
        </option>
      ))}
      {children}
    </select>
  );
}
