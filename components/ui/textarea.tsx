"use client";

import type { TextareaHTMLAttributes } from "react";
import { controlClasses } from "./control-classes";
import { useFieldControl } from "./field";

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  invalid?: boolean;
}

export function Textarea({ invalid, className, id, rows = 3, ...rest }: TextareaProps) {
  const field = useFieldControl();
  const isInvalid = invalid ?? field?.invalid ?? false;
  return (
    <textarea
      id={id ?? field?.id}
      rows={rows}
      aria-invalid={isInvalid || undefined}
      aria-describedby={rest["aria-describedby"] ?? field?.describedBy}
      required={rest.required ?? field?.required}
      className={controlClasses(isInvalid, `py-2 ${className ?? ""}`)}
      {...rest}
    />
  );
}
