import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export default function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState
        title="There's nothing at this address"
        description="The link may be mistyped, or what it pointed to was removed. Use the navigation, or start from the dashboard."
        action={
          <Link href="/dashboard" className={buttonClasses()}>
            Go to the dashboard
          </Link>
        }
      />
    </>
  );
}
