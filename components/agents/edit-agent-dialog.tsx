"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { formErrors } from "@/lib/console/api";
import { useUpdateAgent } from "@/lib/console/hooks/agents";
import type { Agent, AgentRole, KbAccess } from "@/lib/console/types";
import { KB_OPTIONS, kbAccessFixed, ROLE_HINT, ROLE_OPTIONS } from "./agent-labels";

export function EditAgentDialog({ open, onClose, agent }: { open: boolean; onClose: () => void; agent: Agent }) {
  return (
    <Dialog open={open} onClose={onClose} title={`Edit ${agent.name}`}>
      <EditAgentForm agent={agent} onClose={onClose} />
    </Dialog>
  );
}

function EditAgentForm({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const [name, setName] = useState(agent.name);
  const [role, setRole] = useState<AgentRole>(agent.role);
  const [kbAccess, setKbAccess] = useState<KbAccess>(agent.kbAccess);
  const [description, setDescription] = useState(agent.description);
  const [errors, setErrors] = useState<Partial<Record<"name" | "role" | "kbAccess" | "description" | "form", string>>>({});
  const kbFixed = kbAccessFixed(agent.kind, role);

  const save = useUpdateAgent(agent.id, {
    onSuccess: onClose,
    onError: (err) =>
      setErrors(formErrors(err, ["name", "role", "kbAccess", "description"])),
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setErrors({ name: "The agent needs a name" });
    // send only what changed, so the audit log records the real edit
    const body: Record<string, unknown> = {};
    if (name.trim() !== agent.name) body.name = name.trim();
    if (role !== agent.role) body.role = role;
    if (kbAccess !== agent.kbAccess) body.kbAccess = kbAccess;
    if (description !== agent.description) body.description = description;
    if (Object.keys(body).length === 0) return onClose();
    setErrors({});
    save.mutate(body);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field label="Name" error={errors.name} required>
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
      </Field>
      <Field label="Role" error={errors.role} hint={ROLE_HINT[role]}>
        <Select value={role} onChange={(e) => setRole(e.target.value as AgentRole)} options={ROLE_OPTIONS} />
      </Field>
      <Field
        label="Knowledge base access"
        error={errors.kbAccess}
        hint={kbFixed ?? undefined}
      >
        <Select value={kbFixed ? "read" : kbAccess} onChange={(e) => setKbAccess(e.target.value as KbAccess)} options={KB_OPTIONS} disabled={kbFixed !== null} />
      </Field>
      <Field label="Description" error={errors.description}>
        <Textarea value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} rows={3} />
      </Field>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          Save changes
        </Button>
      </DialogFooter>
    </form>
  );
}
