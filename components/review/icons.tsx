import type { SVGProps } from "react";

// Navigation icons for the memory manager's pages, drawn like components/shell/icons.tsx.
type IconProps = SVGProps<SVGSVGElement>;

function Icon({ children, ...props }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
      {children}
    </svg>
  );
}

export const ReviewIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 11l2 2 4-4" />
    <path d="M21 12a9 9 0 1 1-9-9" />
    <path d="M21 3v6h-6" />
  </Icon>
);

export const ContactsIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect width="16" height="18" x="4" y="3" rx="2" />
    <circle cx="12" cy="10" r="3" />
    <path d="M7.5 17a5 5 0 0 1 9 0" />
  </Icon>
);
