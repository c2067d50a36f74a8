import { Icon, type IconProps } from "@/components/shell/icons";

// Navigation icons of the retrieval pages, drawn in the shell's icon frame.

export const DashboardIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 3v18h18" />
    <path d="M7 16v-4M11 16V8M15 16v-6M19 16V5" />
  </Icon>
);

export const RetrievalIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m21 21-4.3-4.3M8 11h6M11 8v6" />
  </Icon>
);
