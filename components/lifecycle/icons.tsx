import { Icon, type IconProps } from "@/components/shell/icons";

// Navigation icons of the lifecycle pages, drawn in the shell's icon frame.

export const EscalationIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3 2.5 20h19L12 3Z" />
    <path d="M12 10v4M12 17.5v.01" />
  </Icon>
);

export const OutcomesIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="m8 12.5 2.5 2.5L16 9.5" />
  </Icon>
);
