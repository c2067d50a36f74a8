"use client";

import type { InputHTMLAttributes } from "react";
import { controlClasses } from "./control-classes";
import { useFieldControl } from "./field";

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
}

export function Input({ invalid, className, id, ...rest }: InputProps) {
  const field = useFieldControl();
  const isInvalid = invalid ?? field?.invalid ?? false;
  return (
    <input
      id={id ?? field?.id}
      aria-invalid={isInvalid || undefined}
      aria-describedby={rest["aria-describedby"] ?? field?.describedBy}
      required={rest.required ?? field?.required}
      className={controlClasses(isInvalid, `h-9 ${className ?? ""}`)}
      {...rest}
    />
  );
}
