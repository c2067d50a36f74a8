import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ClientDetail } from "@/components/clients/client-detail";
import { isUuid } from "@/lib/http/ids";

export const metadata: Metadata = { title: "Client · Memory HQ" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // only a UUID can name one: anything else is an address no page serves
  if (!isUuid(id)) notFound();
  return <ClientDetail id={id} />;
}
