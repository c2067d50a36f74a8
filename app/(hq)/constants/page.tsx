import type { Metadata } from "next";
import { ConstantsPage } from "@/components/constants/constants-page";

export const metadata: Metadata = { title: "Locked constants · Memory HQ" };

export default function Page() {
  return <ConstantsPage />;
}
