import type { SVGProps } from "react";

// The knowledge base's navigation icon, drawn like components/shell/icons.tsx.
export const BookIcon = (p: SVGProps<SVGSVGElement>) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...p}>
    <path d="M4 19.5V5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2.5Z" />
    <path d="M4 19.5A2.5 2.5 0 0 0 6.5 22H19v-3" />
    <path d="M9 7h6M9 11h4" />
  </svg>
);
