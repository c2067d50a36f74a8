import type { Metadata } from "next";
import { DashboardPage } from "@/components/dashboard/dashboard-page";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Dashboard · Memory HQ" };

export default function Page() {
  const { CONSOLIDATE_AT, DAILY_NOTE_TIMEZONE } = getConfig();
  return <DashboardPage consolidation={{ at: CONSOLIDATE_AT, timeZone: DAILY_NOTE_TIMEZONE }} />;
}
