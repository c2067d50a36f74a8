import type { Metadata } from "next";
import { NewEntry } from "@/components/knowledge/new-entry";

export const metadata: Metadata = { title: "New knowledge entry · Memory HQ" };

export default function Page() {
  return <NewEntry />;
}
