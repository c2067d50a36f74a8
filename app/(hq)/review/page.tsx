import type { Metadata } from "next";
import { ReviewQueue } from "@/components/review/review-queue";

export const metadata: Metadata = { title: "Review queue · Memory HQ" };

export default function Page() {
  return <ReviewQueue />;
}
