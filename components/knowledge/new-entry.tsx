"use client";

import { useRouter } from "next/navigation";
import { useCanCurate } from "@/components/shell/current-user";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { useCreateKnowledge } from "@/lib/console/hooks/knowledge";
import { EntryEditor } from "./entry-editor";

/** Write a new entry; it is published (agents find it) as soon as it is saved. */
export function NewEntry() {
  const canCurate = useCanCurate();
  const router = useRouter();
  const create = useCreateKnowledge();

  return (
    <>
      <PageHeader
        back={{ href: "/knowledge", label: "Knowledge base" }}
        title="New knowledge entry"
        description="Published as soon as you save it: every agent can find it from then on. Write it for an agent that has never seen the situation."
      />
      <Card>
        <CardBody>
          {canCurate ? (
            <EntryEditor
              draftKey="knowledge.new"
              draftLabel="your new knowledge entry"
              submitLabel="Publish entry"
              onSubmit={async (draft) => {
                const entry = await create.mutateAsync(draft);
                router.push(`/knowledge/${entry.id}`);
              }}
              onCancel={() => router.push("/knowledge")}
            />
          ) : (
            <EmptyState title="Viewers cannot write entries" description="Ask an HQ admin for the curator role to write and edit the knowledge base." />
          )}
        </CardBody>
      </Card>
    </>
  );
}
