import type { Metadata } from "next";
import { EscalationsPage } from "@/components/lifecycle/escalations-page";

export const metadata: Metadata = { title: "Escalations · Memory HQ" };

export default function Page() {
  return <EscalationsPage />;
}
