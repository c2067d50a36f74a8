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
import { useSaveConstant } from "@/lib/console/hooks/constants";
import { CONSTANT_CATEGORIES, type ConstantCategory, type LockedConstant } from "@/lib/console/types";
import { CATEGORY_LABEL } from "./constant-labels";

const KEY_PATTERN = /^[a-z0-9]+([._-][a-z0-9]+)*$/;
const CATEGORY_OPTIONS = CONSTANT_CATEGORIES.map((value) => ({ value, label: CATEGORY_LABEL[value] }));

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);

/** Adds a locked constant, or edits `constant` (its key stays fixed). */
export function ConstantDialog({
  open,
  onClose,
  constant,
  existingKeys,
}: {
  open: boolean;
  onClose: () => void;
  constant?: LockedConstant;
  existingKeys: string[];
}) {
  return (
    <Dialog open={open} onClose={onClose} title={constant ? `Edit “${constant.label}”` : "Add a locked constant"} description="Agents read locked constants verbatim; no agent call can change them.">
      <ConstantForm onClose={onClose} constant={constant} existingKeys={existingKeys} />
    </Dialog>
  );
}

type Errors = Partial<Record<"key" | "label" | "value" | "category" | "description" | "form", string>>;

function ConstantForm({ onClose, constant, existingKeys }: { onClose: () => void; constant?: LockedConstant; existingKeys: string[] }) {
  const [category, setCategory] = useState<ConstantCategory>(constant?.category ?? "pricing");
  const [label, setLabel] = useState(constant?.label ?? "");
  const [key, setKey] = useState(constant?.key ?? "");
  const [keyEdited, setKeyEdited] = useState(Boolean(constant));
  const [value, setValue] = useState(constant?.value ?? "");
  const [description, setDescription] = useState(constant?.description ?? "");
  const [errors, setErrors] = useState<Errors>({});

  // until the key is typed by hand, derive it from category and label
  const effectiveKey = keyEdited ? key : label ? `${category}.${slug(label)}` : "";

  const save = useSaveConstant(effectiveKey, {
    onSuccess: onClose,
    onError: (err) =>
      setErrors(formErrors(err, ["key", "label", "value", "category", "description"])),
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found: Errors = {};
    if (!label.trim()) found.label = "Give the constant a label";
    if (!value.trim()) found.value = "Enter the value agents must use";
    if (!constant) {
      if (!effectiveKey) found.key = "Enter a key";
      else if (!KEY_PATTERN.test(effectiveKey) || effectiveKey.length > 100)
        found.key = "Use lowercase letters, digits, dots, dashes and underscores";
      else if (existingKeys.includes(effectiveKey)) found.key = "A constant with this key exists; edit it instead";
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate({ label: label.trim(), value: value.trim(), category, description: description.trim() });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Category" error={errors.category}>
          <Select value={category} onChange={(e) => setCategory(e.target.value as ConstantCategory)} options={CATEGORY_OPTIONS} />
        </Field>
        <Field label="Label" error={errors.label} required>
          <Input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={200} placeholder="e.g. Starter plan price" />
        </Field>
      </div>
      <Field label="Key" error={errors.key} hint={constant ? "The key can't be changed." : "How agents and the API refer to it."}>
        <Input
          value={effectiveKey}
          onChange={(e) => {
            setKeyEdited(true);
            setKey(e.target.value.toLowerCase());
          }}
          readOnly={Boolean(constant)}
          className="font-mono"
          maxLength={100}
        />
      </Field>
      <Field label="Value" error={errors.value} required>
        <Textarea value={value} onChange={(e) => setValue(e.target.value)} maxLength={2000} rows={2} />
      </Field>
      <Field label="Description" error={errors.description} hint="Optional: when agents should use it">
        <Textarea value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} rows={2} />
      </Field>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          {constant ? "Save changes" : "Add constant"}
        </Button>
      </DialogFooter>
    </form>
  );
}
