import type { HqRole } from "@/lib/console/types";

export const ROLE_LABEL: Record<HqRole, string> = { admin: "Admin", curator: "Curator", viewer: "Viewer" };

export const ROLE_HINT: Record<HqRole, string> = {
  admin: "Everything: agents and keys, users, locked constants, approvals.",
  curator: "Edits the knowledge base and approves or rejects memory suggestions.",
  viewer: "Reads everything, changes nothing.",
};

export const ROLE_OPTIONS = (Object.keys(ROLE_LABEL) as HqRole[]).map((value) => ({ value, label: ROLE_LABEL[value] }));
