import type { Metadata } from "next";
import { OutcomesPage } from "@/components/lifecycle/outcomes-page";

export const metadata: Metadata = { title: "Outcomes · Memory HQ" };

export default function Page() {
  return <OutcomesPage />;
}
