import { Badge } from "@/components/ui/badge";

export function AgentStatusBadge({ disabledAt }: { disabledAt: string | null }) {
  return disabledAt ? <Badge tone="neutral">Disabled</Badge> : <Badge tone="green">Active</Badge>;
}
