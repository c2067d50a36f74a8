// The smart trigger against its labelled message sets (tests/fixtures/trigger-dev-set.json and the
// held-out set): accuracy, "needed context but classified none" (the costly error: the agent
// answers without what it needed) and "none but fetched" (the cheap one), per agent kind and
// overall, with the time per classification on the serving path (candidateTerms over an indexed
// vocabulary: the set's names plus 500 contacts, as an agent's vocabulary holds at most).
// Mismatches are listed on stderr.
import { classify } from "@/lib/retrieval/smart-trigger/classify";
import type { TriggerVariant } from "@/lib/retrieval/smart-trigger/types";
import { compileVocabulary } from "@/lib/retrieval/smart-trigger/vocabulary";
import { candidateTerms, indexVocabulary } from "@/lib/retrieval/smart-trigger/vocabulary-index";
import { loadTriggerSet, scoreTriggerSet, type TriggerSet } from "@/tests/helpers/trigger-set";
import { measure, type BenchRow } from "./measure";

const CONTACTS = 500;

async function rowsFor(name: "dev" | "holdout", set: TriggerSet): Promise<BenchRow[]> {
  const indexes = Object.fromEntries(
    (["internal", "field"] as const).map((kind) => {
      const v = set.vocabularies[kind];
      const contacts = Array.from({ length: CONTACTS }, (_, i) => ({ term: `Bench${i} Contact${i}`, type: "contact" as const }));
      return [kind, indexVocabulary(compileVocabulary([...v.terms, ...contacts], v.selfName))];
    }),
  ) as Record<TriggerVariant, ReturnType<typeof indexVocabulary>>;

  const rows: BenchRow[] = [];
  for (const kind of ["internal", "field", "all"] as const) {
    const filter = kind === "all" ? undefined : (m: TriggerSet["messages"][number]) => m.agentKind === kind;
    const score = scoreTriggerSet(set, filter);
    const messages = filter ? set.messages.filter(filter) : set.messages;
    for (const w of kind === "all" ? score.wrong : []) {
      process.stderr.write(`  ${name} ${w.agentKind}: expected ${w.expected}, got ${w.got} — ${w.message}\n`);
    }
    const row = await measure(
      `trigger: ${name} set, ${kind}`,
      {
        n: messages.length * 5,
        warmup: messages.length,
        notes:
          `accuracy ${score.accuracy.toFixed(3)} (${score.correct}/${score.n}), needed-but-none ${score.neededButNone.length}, ` +
          `none-but-fetched ${score.noneButFetched.length}, other mismatches ${score.wrong.length - score.neededButNone.length - score.noneButFetched.length}; ms per message`,
      },
      async (i) => {
        const m = messages[i % messages.length]!;
        classify(m.message, {
          variant: m.agentKind,
          compiled: candidateTerms(indexes[m.agentKind], m.message),
          selfName: set.vocabularies[m.agentKind].selfName,
        });
      },
    );
    rows.push(row);
  }
  return rows;
}

export async function benchTrigger(): Promise<BenchRow[]> {
  return [...(await rowsFor("dev", loadTriggerSet("dev"))), ...(await rowsFor("holdout", loadTriggerSet("holdout")))];
}
