import type { Metadata } from "next";
import { AgentsPage } from "@/components/agents/agents-page";

export const metadata: Metadata = { title: "Agents · Memory HQ" };

export default function Page() {
  return <AgentsPage />;
}
