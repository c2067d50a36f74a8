import { Icon, type IconProps } from "@/components/shell/icons";

// Navigation icons for the memory manager's pages.
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
