"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage, formErrors } from "@/lib/console/api";
import { useClients, useCreateAgent } from "@/lib/console/hooks/agents";
import type { AgentKind, AgentRole, KbAccess } from "@/lib/console/types";
import { KB_OPTIONS, KIND_OPTIONS, kbAccessFixed, ROLE_HINT, ROLE_OPTIONS } from "./agent-labels";

export function NewAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="New agent" description="Create the agent, then issue it an API key on its page.">
      <NewAgentForm onClose={onClose} />
    </Dialog>
  );
}

type Errors = Partial<Record<"name" | "clientId" | "kbAccess" | "role" | "description" | "form", string>>;

function NewAgentForm({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const clients = useClients();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<AgentKind>("internal");
  const [role, setRole] = useState<AgentRole>("specialist");
  const [kbAccess, setKbAccess] = useState<KbAccess>("read");
  const [clientId, setClientId] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<Errors>({});

  const create = useCreateAgent({
    onSuccess: ({ agent }) => {
      onClose();
      router.push(`/agents/${agent.id}`);
    },
    onError: (err) =>
      setErrors(formErrors(err, ["name", "clientId", "kbAccess", "role", "description"])),
  });

  const isField = kind === "field";
  const kbFixed = kbAccessFixed(kind, role);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found: Errors = {};
    if (!name.trim()) found.name = "Give the agent a name";
    if (isField && !clientId) found.clientId = "Field agents belong to a client; choose one";
    setErrors(found);
    if (Object.keys(found).length) return;
    create.mutate({
      name: name.trim(),
      kind,
      role,
      kbAccess: kbFixed ? "read" : kbAccess,
      ...(isField ? { clientId } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
    });
  }

  const clientOptions = (clients.data ?? []).map((c) => ({ value: c.id, label: c.name }));

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field label="Name" error={errors.name} required>
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} placeholder="e.g. Sasha" />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Kind">
          <Select
            value={kind}
            onChange={(e) => {
              const next = e.target.value as AgentKind;
              setKind(next);
              if (next === "field") setKbAccess("read");
            }}
            options={KIND_OPTIONS}
          />
        </Field>
        <Field label="Role" error={errors.role}>
          <Select value={role} onChange={(e) => setRole(e.target.value as AgentRole)} options={ROLE_OPTIONS} />
        </Field>
      </div>
      <p className="-mt-2 text-xs text-slate-500">{ROLE_HINT[role]}</p>
      {isField && (
        <Field
          label="Client"
          required
          error={errors.clientId ?? (clients.isError ? `Couldn't load clients: ${errorMessage(clients.error)}` : undefined)}
          hint={clients.data && clients.data.length === 0 ? "There are no clients yet; create one first." : "A field agent sees only this client's data."}
        >
          <Select
            value={clientId}
            onChange={(e) => setClientId(e.target.value)}
            placeholder={clients.isPending ? "Loading clients…" : "Choose a client…"}
            options={clientOptions}
          />
        </Field>
      )}
      <Field
        label="Knowledge base access"
        error={errors.kbAccess}
        hint={kbFixed ?? "Write lets the agent add and edit HQ knowledge."}
      >
        <Select
          value={kbFixed ? "read" : kbAccess}
          onChange={(e) => setKbAccess(e.target.value as KbAccess)}
          disabled={kbFixed !== null}
          options={KB_OPTIONS}
        />
      </Field>
      <Field label="Description" error={errors.description} hint="Optional: what the agent does">
        <Textarea value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} rows={2} />
      </Field>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending}>
          Create agent
        </Button>
      </DialogFooter>
    </form>
  );
}
