import type { Metadata } from "next";
import { EntryDetail } from "@/components/knowledge/entry-detail";

export const metadata: Metadata = { title: "Knowledge entry · Memory HQ" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EntryDetail id={id} />;
}
