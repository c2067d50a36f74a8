/** The smart trigger's verdicts and what it reports matching. */

export type TriggerVariant = "internal" | "field";
export type TriggerLevel = "none" | "local" | "shared" | "hq";

export type TriggerKind =
  | "decision"
  | "commitment"
  | "past_reference"
  | "planning"
  | "correction"
  | "how_to"
  | "name"
  | "procedural"
  | "error"
  | "scope"
  | "escalation"
  | "tool";

export interface Trigger {
  kind: TriggerKind;
  match: string;
}

export interface Classification {
  level: TriggerLevel;
  triggers: Trigger[];
}
