import type { Metadata } from "next";
import { RetrievalPlayground } from "@/components/retrieval/retrieval-playground";

export const metadata: Metadata = { title: "Retrieval playground · Memory HQ" };

export default function Page() {
  return <RetrievalPlayground />;
}
