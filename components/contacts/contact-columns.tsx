import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-list";
import { formatDateTime, formatRelative } from "@/lib/console/format";
import type { Contact } from "@/lib/console/review-types";
import { STAGE_LABEL } from "./labels";

// an opt-out HQ has still to finish shows the name kept for it (HQ admins only see those)
const name = (c: Contact) => c.name ?? c.hqErasure?.name ?? (c.optOut ? "Opted-out contact" : "Unnamed contact");

const COLUMN: Record<string, Column<Contact>> = {
  contact: {
    id: "contact",
    header: "Contact",
    primary: true,
    cell: (c) => (
      <Link href={`/contacts/${c.id}`} className="font-medium text-slate-900 hover:text-indigo-600">
        {name(c)}
      </Link>
    ),
  },
  phone: { id: "phone", header: "Phone", className: "font-mono text-xs", cell: (c) => c.phone ?? "—" },
  email: { id: "email", header: "Email", className: "text-xs", cell: (c) => c.email ?? "—" },
  client: { id: "client", header: "Client", className: "text-xs", cell: (c) => c.clientName ?? "HQ" },
  stage: {
    id: "stage",
    header: "Stage",
    cell: (c) =>
      c.hqErasure ? (
        <Badge tone="amber">Opted out · HQ to finish</Badge>
      ) : c.optOut ? (
        <Badge tone="red">Opted out</Badge>
      ) : (
        <Badge>{STAGE_LABEL[c.stage] ?? c.stage}</Badge>
      ),
  },
  facts: { id: "facts", header: "Facts", className: "text-right", headerClassName: "text-right", cell: (c) => c.factCount ?? 0 },
  pending: {
    id: "pending",
    header: "Pending",
    className: "text-right",
    headerClassName: "text-right",
    cell: (c) => (c.pendingCount ? <Badge tone="amber">{c.pendingCount}</Badge> : "0"),
  },
  updated: {
    id: "updated",
    header: "Updated",
    className: "text-xs text-slate-500",
    cell: (c) => <span title={formatDateTime(c.updatedAt)}>{formatRelative(c.updatedAt)}</span>,
  },
};

/** The contacts list's columns; a client's page leaves out its client. */
export const CONTACT_COLUMNS = [COLUMN.contact!, COLUMN.phone!, COLUMN.email!, COLUMN.client!, COLUMN.stage!, COLUMN.facts!, COLUMN.pending!, COLUMN.updated!];
export const CLIENT_CONTACT_COLUMNS = [COLUMN.contact!, COLUMN.phone!, COLUMN.stage!, COLUMN.facts!, COLUMN.pending!, COLUMN.updated!];
