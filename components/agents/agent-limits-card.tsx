"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { formErrors } from "@/lib/console/api";
import { useUpdateAgent } from "@/lib/console/hooks/agents";
import type { Agent } from "@/lib/console/types";

type LimitName = keyof Agent["limits"]["custom"];

const LIMITS: { name: LimitName; label: string; unit: string; hint: string; max: number }[] = [
  { name: "requestsPerSecond", label: "Requests per second", unit: "/s", hint: "Sustained rate; past it (and its burst) requests get 429.", max: 100_000 },
  { name: "burst", label: "Burst", unit: "requests", hint: "Requests it may send at once above that rate.", max: 1_000_000 },
  { name: "maxWaiting", label: "Waiting at once", unit: "requests", hint: "Its requests that may wait for a turn; one more gets 429.", max: 100_000 },
];

/**
 * The agent's request limits in force (its own where an HQ admin set them, else the server's
 * defaults), and for admins a dialog to raise them for an importer or lower them for a noisy agent.
 */
export function AgentLimitsCard({ agent, isAdmin }: { agent: Agent; isAdmin: boolean }) {
  const [editing, setEditing] = useState(false);
  const { custom } = agent.limits;
  return (
    <Card data-testid="agent-limits">
      <CardHeader
        title="Limits"
        description="How many requests this agent may send; past them it gets 429 and other callers are not slowed by it."
        actions={
          isAdmin && (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Change limits
            </Button>
          )
        }
      />
      <CardBody>
        <DescriptionList
          items={LIMITS.map((l) => ({
            label: l.label,
            value: (
              <span className="flex items-center gap-2">
                <span className="tabular-nums">
                  {agent.limits[l.name].toLocaleString()} {l.unit === "/s" ? "per second" : l.unit}
                </span>
                {custom[l.name] === null ? <Badge tone="neutral">default</Badge> : <Badge tone="indigo">set for this agent</Badge>}
              </span>
            ),
          }))}
        />
      </CardBody>
      {isAdmin && (
        <Dialog open={editing} onClose={() => setEditing(false)} title={`Limits of ${agent.name}`}>
          <LimitsForm agent={agent} onClose={() => setEditing(false)} />
        </Dialog>
      )}
    </Card>
  );
}

const fieldOf = (name: LimitName) => `limits.${name}` as const;

function LimitsForm({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const { custom } = agent.limits;
  const [values, setValues] = useState<Record<LimitName, string>>({
    requestsPerSecond: custom.requestsPerSecond?.toString() ?? "",
    burst: custom.burst?.toString() ?? "",
    maxWaiting: custom.maxWaiting?.toString() ?? "",
  });
  const [errors, setErrors] = useState<Partial<Record<ReturnType<typeof fieldOf> | "form", string>>>({});
  const save = useUpdateAgent(agent.id, {
    onSuccess: onClose,
    onError: (err) => setErrors(formErrors(err, LIMITS.map((l) => fieldOf(l.name)))),
  });

  function submit(next: Record<LimitName, string>) {
    const limits: Partial<Record<LimitName, number | null>> = {};
    const problems: typeof errors = {};
    for (const l of LIMITS) {
      const text = next[l.name].trim();
      const value = text === "" ? null : Number(text);
      if (value !== null && (!Number.isInteger(value) || value < 1 || value > l.max)) {
        problems[fieldOf(l.name)] = `A whole number from 1 to ${l.max.toLocaleString()}, or empty for the default`;
      } else if (value !== custom[l.name]) {
        limits[l.name] = value;
      }
    }
    if (Object.keys(problems).length) return setErrors(problems);
    // only what changed, so the audit log records the real edit
    if (Object.keys(limits).length === 0) return onClose();
    setErrors({});
    save.mutate({ limits });
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    submit(values);
  }

  const anyCustom = LIMITS.some((l) => custom[l.name] !== null);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <p className="text-sm text-slate-600">
        Leave a field empty to use the server&apos;s default. Each server instance counts these on its own.
      </p>
      {LIMITS.map((l) => (
        <Field key={l.name} label={l.label} error={errors[fieldOf(l.name)]} hint={`${l.hint} In force now: ${agent.limits[l.name].toLocaleString()}.`}>
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={l.max}
            step={1}
            placeholder="default"
            value={values[l.name]}
            onChange={(e) => setValues({ ...values, [l.name]: e.target.value })}
          />
        </Field>
      ))}
      <DialogFooter>
        {anyCustom && (
          <Button variant="secondary" onClick={() => submit({ requestsPerSecond: "", burst: "", maxWaiting: "" })} disabled={save.isPending}>
            Use the defaults
          </Button>
        )}
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          Save limits
        </Button>
      </DialogFooter>
    </form>
  );
}
