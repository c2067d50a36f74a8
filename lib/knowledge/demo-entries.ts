import type { Queryable } from "@/lib/db/types";
import { getEmbeddingProvider, toVectorLiteral } from "@/lib/embeddings";
import { knowledgeEmbeddingText } from "./embedding-text";
import type { KnowledgeCategory } from "./schemas";

// The demo's starter knowledge base (the "BJS Knowledge Base"): the franchise operations manual
// a field agent like Santos queries at the `hq` trigger level. Written for the demo, but meant to be
// useful as it stands. `{{key}}` placeholders are filled from the locked constants at seed time, so
// the escalation number and booking link always read as HQ set them. Nothing here is internal
// strategy, client data or pricing: the "what stays out" list.

export interface DemoKnowledgeEntry {
  title: string;
  category: KnowledgeCategory;
  tags: string[];
  author: string;
  content: string;
  /** a later edit, so the demo shows a version history and a diff */
  revision?: { author: string; content: string };
}

export const DEMO_KNOWLEDGE: DemoKnowledgeEntry[] = [
  // ── escalation ──────────────────────────────────────────────────────────────────────────────
  {
    title: "Escalation severity levels",
    category: "escalation",
    tags: ["escalation", "severity", "response-times"],
    author: "Sam",
    content: `Every escalation carries a severity. Pick the highest level that fits; when unsure between two, pick the higher one.

### Sev 1 — critical
Safety, legal exposure, or the client's revenue is at risk right now. Examples: a customer reports a gas smell; a message went to someone who texted STOP; the booking system is down during business hours.

**Response:** call **{{escalation.phone}}** immediately, then file the escalation. Someone answers within 15 minutes, day or night.

### Sev 2 — high
A customer is blocked or upset and you cannot fix it yourself. Examples: a refund request; a double-booked technician; a tool keeps failing after retries.

**Response:** file the escalation. HQ responds within 2 business hours.

### Sev 3 — normal
A question outside your procedures, no one waiting on it. Examples: "Can we offer weekend slots?"; a template does not fit a situation.

**Response:** file the escalation. HQ responds within 1 business day.

### Sev 4 — low
An improvement idea or a gap in the knowledge base. Examples: a recurring question with no entry; a template that could be shorter.

**Response:** file it, or propose a playbook update. Reviewed weekly.

## Rules

- Never sit on a Sev 1 to gather more detail. Call first, write second.
- Tell the customer what happens next ("I've passed this to our team; you'll hear back within two hours") — never promise an outcome HQ has not approved.
- Only the escalation number above is used for urgent calls. Do not give customers personal numbers of HQ staff.`,
    revision: {
      author: "Sam",
      content: `Every escalation carries a severity. Pick the highest level that fits; when unsure between two, pick the higher one.

### Sev 1 — critical
Safety, legal exposure, or the client's revenue is at risk right now. Examples: a customer reports a gas smell or flooding; a message went to someone who texted STOP; the booking system is down during business hours.

**Response:** call **{{escalation.phone}}** immediately, then file the escalation. Someone answers within 15 minutes, day or night.

### Sev 2 — high
A customer is blocked or upset and you cannot fix it yourself. Examples: a refund request; a double-booked technician; a tool keeps failing after three retries.

**Response:** file the escalation. HQ responds within 2 business hours.

### Sev 3 — normal
A question outside your procedures, no one waiting on it. Examples: "Can we offer weekend slots?"; a template does not fit a situation.

**Response:** file the escalation. HQ responds within 1 business day.

### Sev 4 — low
An improvement idea or a gap in the knowledge base. Examples: a recurring question with no entry; a template that could be shorter.

**Response:** file it, or propose a playbook update. Reviewed weekly.

## Rules

- Never sit on a Sev 1 to gather more detail. Call first, write second.
- For anything that could hurt someone (gas, flooding near electrics, carbon monoxide), tell the customer to leave the area and call 911 **before** you call HQ.
- Tell the customer what happens next ("I've passed this to our team; you'll hear back within two hours") — never promise an outcome HQ has not approved.
- Only the escalation number above is used for urgent calls. Do not give customers personal numbers of HQ staff.`,
    },
  },
  {
    title: "When to escalate to HQ",
    category: "escalation",
    tags: ["escalation", "scope", "decision-making"],
    author: "Sam",
    content: `Search the knowledge base first: most questions already have an answer here. Escalate when **any** of these is true:

1. **Money changes hands outside the normal flow** — refunds, discounts, credits, disputed invoices. You never approve these yourself.
2. **A promise would bind the client** — a guarantee, a deadline, a price that is not in the locked constants.
3. **Safety or legal risk** — injuries, property damage, threats, a lawyer or regulator is mentioned, a consent (STOP) problem.
4. **A tool failed three times** after the retries in *Handling API errors*.
5. **The customer asks for a human**, twice or angrily. Do not argue; hand off.
6. **You are outside your scope** — the request is about another client, BJS internal matters, or anything you would have to guess at.

Do **not** escalate routine questions the knowledge base answers, scheduling inside the booking rules, or small talk.

Before you escalate, write down what you already tried. An escalation without that gets sent back.

After HQ resolves it, check the knowledge base a week later: Sam writes every reusable fix into it, so the same question should never need escalating twice.`,
  },
  {
    title: "How to file an escalation",
    category: "escalation",
    tags: ["escalation", "api", "writing"],
    author: "Sam",
    content: `File escalations through the API so HQ sees them in the console with the context attached:

\`\`\`http
POST /api/v1/escalations
Authorization: Bearer mhq_…
Content-Type: application/json

{ "question": "Customer at 14 Oak St asks for a refund of a cancelled visit fee", "severity": "high" }
\`\`\`

The answer includes \`similarKnowledge\`: entries that may already answer the question. Read them before you wait for HQ.

## What a good escalation says

- **What happened**, in one or two sentences, with the job or thread it belongs to.
- **What you tried** and what each attempt returned.
- **Who is waiting** and what you told them.
- **What you need** from HQ: a decision, an approval, a fix.

## What it never says

- Card numbers, social security numbers, health details or other personal data. Refer to the contact by name or id; HQ can look the rest up.
- Guesses presented as facts. "I think the technician was late" is fine if you say it is a guess.

For Sev 1, call **{{escalation.phone}}** first and file the escalation right after.`,
  },
  // ── procedures ──────────────────────────────────────────────────────────────────────────────
  {
    title: "Using the Memory HQ API",
    category: "procedure",
    tags: ["api", "getting-started", "authentication"],
    author: "Sybil",
    content: `Every call sends your key: \`Authorization: Bearer mhq_…\`. Keys are shown once when HQ issues them; if you lose yours, ask HQ for a new one. \`me\` stands for your own agent id in paths.

## The calls you will use every day

- **Starting a session:** \`GET /api/v1/agents/me/boot\` — soul, scratchpad, today's note, pending commitments, recent work, locked constants.
- **Before answering a message:** \`POST /api/v1/trigger\` with \`{message}\` tells you whether to search (\`none\`, \`local\`, \`hq\`).
- **Looking something up:** \`POST /api/v1/retrieve\` with \`{message}\`; add \`scopes: ["knowledge"]\` to search this knowledge base only.
- **Searching the knowledge base directly:** \`GET /api/v1/knowledge?q=refund+request&category=procedure\`.
- **Remembering something:** \`POST /api/v1/agents/me/memories\` (see *Saving what you learn*).
- **Updating your scratchpad:** \`PUT /api/v1/agents/me/documents/working\` with \`{content, expectedVersion}\`.

## Rules that save you trouble

- Send \`expectedVersion\` when you write a document. A \`409 version_conflict\` means someone saved after you read it: read again, merge, retry.
- Unknown fields are rejected with \`422\`. Fix the request instead of retrying it.
- Locked constants (prices, guarantees, compliance rules, the escalation number, the booking link) come from \`GET /api/v1/locked-constants\`. Quote them exactly; never store your own copy.

The full reference is at \`/api/v1/openapi.json\`.`,
  },
  {
    title: "Field agent boot sequence",
    category: "procedure",
    tags: ["boot", "field-agents", "memory"],
    author: "Sybil",
    content: `Run this at the start of every session, before answering anyone.

1. **Load your core** — \`GET /api/v1/agents/me/boot\`. Read \`soul\` (who you are and who you work for) and the client's procedures and preferences in \`recent\` and \`pending\`.
2. **Check open commitments** — everything in \`pending\` is something you promised. Anything due today goes first.
3. **Read recent context** — the last 3 to 7 days of work. Skim; do not re-answer old threads.
4. **No team highlights.** Field agents have no shared brain; that is by design, not a failure.
5. **Load the locked constants** from the boot answer and use them verbatim for the whole session.
6. **Ready.** For each message, ask the trigger whether to search: \`none\` (just answer), \`local\` (your own memory) or \`hq\` (this knowledge base).

If the boot call fails, retry once after a few seconds. If it still fails, tell the client's contact you are having a technical issue and file a Sev 2 escalation.`,
  },
  {
    title: "Saving what you learn (memory_write)",
    category: "procedure",
    tags: ["memory", "memory-write", "api"],
    author: "Sybil",
    content: `Store what will matter next week, not everything you saw.

\`\`\`json
POST /api/v1/agents/me/memories
{ "tier": "learning", "category": "insight", "title": "Customers book more on Tuesdays",
  "content": "Seen across three weeks of the calendar.", "confidence": 0.8, "sourceTraceId": "thread-8812" }
\`\`\`

## Rules the API enforces

- **Title ≤ 200 characters.** Make it a sentence someone could search for.
- **Confidence ≥ 0.4.** Below that, do not store it at all.
- **\`sourceTraceId\` deduplicates.** Sending the same id twice returns the first memory with \`deduplicated: true\` — safe to retry.
- **At most 200 active memories.** The oldest low-value ones are archived to make room; core memories are never evicted.
- **Low-confidence learning entries expire after 7 days** unless someone retrieves them.

## Which tier

- **core** — identity, the client's business, standing procedures and preferences. Always stored.
- **working** — active projects, open threads, commitments. Resolve them when done.
- **learning** — decisions, corrections, insights, outcomes. Store when it surprised you.

Corrections from the client are always stored. Facts about a customer (phone, preferences) are **proposed** as suggestions instead — see *Proposing a customer fact*.`,
  },
  {
    title: "Proposing a customer fact",
    category: "procedure",
    tags: ["suggestions", "memory-manager", "privacy"],
    author: "Sybil",
    content: `Only the memory manager writes canonical facts about contacts. Everyone else proposes:

\`\`\`json
POST /api/v1/suggestions
{ "contactId": "…", "key": "preferred_time", "value": "mornings before 10", "confidence": 0.8 }
\`\`\`

## What happens next

- A suggestion is approved only at **confidence ≥ 0.7**. Lower ones wait for a person or are rejected.
- When it conflicts with a stored fact, **the higher confidence wins**.
- **Personal data is refused at once** (\`422 pii_refused\`): card numbers, social security numbers, health, religion, politics. Nothing is stored except an audit entry. Do not try to rephrase it past the filter.
- **Locked constants cannot be suggested.** Prices, guarantees and the booking link change only in the HQ console.

If a customer asks you to forget them, say you will pass it on and file a Sev 2 escalation: opt-out erases their facts and conversation text, and only HQ runs it.`,
  },
  // ── best practices ──────────────────────────────────────────────────────────────────────────
  {
    title: "Every reusable fix goes into the knowledge base",
    category: "best-practice",
    tags: ["escalation", "knowledge-base", "curation"],
    author: "Sam",
    content: `The goal: **the same issue never gets escalated twice.**

When an escalation is resolved, ask one question: *could this help another agent, at another client?* If yes, write it up before closing the escalation.

## A good entry

- **Title** is the question an agent would type: "Customer wants to reschedule inside 24 hours", not "Rescheduling".
- **First paragraph answers it.** Background goes below.
- **Steps are numbered**, with the exact API call or wording where it matters.
- **Category and tags** are chosen so a filtered search finds it.
- **No client names, no customer data, no prices.** Those stay out of the knowledge base.

## Keep it current

- Edit the entry rather than adding a second one; the history keeps every earlier version and any version can be restored.
- Archive entries that no longer apply. Archived entries disappear from agents' searches but stay in the history.
- Check the "never retrieved" list on the dashboard monthly: an entry nobody finds needs a better title or tags, or should go.`,
  },
  {
    title: "Questions about prices and guarantees",
    category: "best-practice",
    tags: ["pricing", "locked-constants", "sales"],
    author: "Sam",
    content: `Prices, guarantees and refund terms are **locked constants**. You quote them exactly as they appear in \`GET /api/v1/locked-constants\`, or not at all.

- Never round, estimate, combine or "approximately" a price.
- Never offer a discount, credit or exception. If the customer pushes, escalate (Sev 2) and tell them someone from the team will follow up.
- If a question needs a conversation (custom scope, multiple locations), offer the discovery call: **{{booking.discovery}}**.
- If a constant looks wrong or out of date, do not work around it: file a Sev 3 escalation. Only HQ admins change constants.

A wrong price quoted once can bind the client. When in doubt, do not quote.`,
  },
  {
    title: "Consent, STOP and unsubscribe",
    category: "best-practice",
    tags: ["compliance", "sms", "email", "tcpa"],
    author: "Sybil",
    content: `Compliance rules are locked constants; these are what they mean day to day.

**Texts and calls:** {{compliance.tcpa}}.

- "STOP", "unsubscribe", "quit", "cancel", "end" — in any capitalisation, alone or in a sentence — mean stop. Confirm once ("You're unsubscribed and won't hear from us again") and never message that number again.
- Consent given to the client does not carry over to a different business or purpose.
- A message sent after STOP is a **Sev 1** escalation.

**Email:** {{compliance.can-spam}}.

- Every marketing email gets the client's postal address and a working unsubscribe link. Templates in this knowledge base already have both.
- Honour unsubscribes immediately, even though the law allows days.

When unsure whether you may contact someone, you may not.`,
  },
  {
    title: "Writing in the client's brand voice",
    category: "best-practice",
    tags: ["writing", "brand-voice", "customer-communication"],
    author: "Sage",
    content: `You speak for the client, not for BJS Labs. Customers should never be able to tell an agent wrote the message.

1. **Read the client's voice notes** in your core memory before the first message of a session.
2. **Mirror the customer's register.** Short texts get short answers. Formal emails get formal ones.
3. **One message, one purpose.** Confirm the booking *or* ask the question — not both plus an upsell.
4. **Plain words.** "We'll be there between 8 and 10" beats "Your appointment window has been confirmed".
5. **Sign as the client's team** ("— The Sunrise team"), never with an agent name unless the client asked for it.

Avoid: exclamation marks in every sentence, emojis the client does not use, promises about outcomes, and apologising more than once.`,
  },
  {
    title: "Recovering after a mistake with a customer",
    category: "best-practice",
    tags: ["customer-communication", "corrections", "escalation"],
    author: "Sam",
    content: `Mistakes happen: a wrong time, a message to the wrong thread, a misunderstood request.

1. **Correct it fast and plainly.** "Sorry — I gave you the wrong time. Your visit is Thursday at 9, not 10."
2. **Apologise once.** Then move to the fix.
3. **Do not blame a system or a colleague** to the customer.
4. **Store the correction** as a learning memory (category \`correction\`) so you do not repeat it.
5. **Escalate if it cost the customer something** — a wasted trip, a missed appointment, a charge. That is a Sev 2: the client decides on any goodwill gesture, not you.`,
  },
  // ── templates ───────────────────────────────────────────────────────────────────────────────
  {
    title: "New client welcome email",
    category: "template",
    tags: ["email", "onboarding", "welcome"],
    author: "Sage",
    content: `Sent by HQ to the client's owner on day one of a deployment. Replace everything in {braces}.

---

**Subject:** Your new assistant starts today, {first_name}

Hi {first_name},

Welcome aboard. Starting today, {agent_name} answers {channels} for {business_name}: booking visits, answering common questions, and following up with customers who have not replied.

**What happens this week**

1. Today — we load your services, hours and service area.
2. Within 48 hours — {agent_name} starts answering new messages; every conversation is visible to you.
3. Friday — you get the first weekly report: calls booked, open threads, anything we escalated.

**What we need from you**

- Your preferred wording for the three questions customers ask most.
- Who on your team should hear about urgent issues, and how.

If anything urgent comes up, call us at {{escalation.phone}}. For a walkthrough, book a call: {{booking.discovery}}.

Talk soon,
The BJS Labs team

{client_postal_address} · Unsubscribe: {unsubscribe_link}`,
  },
  {
    title: "Client onboarding checklist",
    category: "template",
    tags: ["onboarding", "checklist", "deployment"],
    author: "Sybil",
    content: `Copy this checklist into the client's working memory on day one and tick items off as they are done.

## Before the agent goes live

- [ ] Client record created; field agent created with the client attached and a key issued
- [ ] Core memory: business name, services, service area, opening hours, holidays
- [ ] Core memory: brand voice notes and three example messages the owner likes
- [ ] Contacts for urgent issues (who, channel, hours)
- [ ] Booking rules: slot length, buffer between visits, how far ahead customers may book
- [ ] Trigger terms for the client (their name, main services) set on the client record
- [ ] Welcome email sent (template: *New client welcome email*)

## First week

- [ ] Review every conversation daily with the owner's feedback
- [ ] Store each correction as a learning memory
- [ ] First weekly report sent on Friday (template: *Weekly client report*)
- [ ] Any question escalated twice → a knowledge base entry`,
  },
  {
    title: "Missed-call and follow-up texts",
    category: "template",
    tags: ["sms", "follow-up", "missed-call"],
    author: "Sam",
    content: `Short texts for the three situations that come up daily. Only send to numbers with consent (see *Consent, STOP and unsubscribe*).

**Missed call (within 5 minutes):**
> Hi, this is {business_name} — sorry we missed your call! How can we help? You can also book here: {booking_link}

**No reply after a quote (2 days later):**
> Hi {first_name}, just checking in on the quote for {job}. Any questions I can answer? Reply STOP to opt out.

**Visit reminder (day before, 5–7 pm):**
> Reminder: {technician} is coming {day} between {window}. Reply C to confirm or R to reschedule.

Keep each under 160 characters where you can. Never add prices to these templates.`,
  },
  {
    title: "Weekly client report",
    category: "template",
    tags: ["report", "weekly", "client-communication"],
    author: "Sage",
    content: `Sent every Friday to the client's owner. Keep it to one screen.

---

**{business_name} — week of {date}**

**Results**
- {n} conversations · {n} visits booked · {n} quotes followed up
- Busiest day: {day}

**Needs your attention**
- {open thread or decision, one line each — or "Nothing this week"}

**Escalated to our team**
- {severity} — {one-line summary} — {status}

**What we learned**
- {one or two corrections or patterns, in plain words}

Questions? Reply to this email.`,
  },
  // ── tool guides ─────────────────────────────────────────────────────────────────────────────
  {
    title: "Handling API errors",
    category: "tool-guide",
    tags: ["api", "errors", "retries"],
    author: "Sam",
    content: `Every error has the shape \`{"error": {"code", "message", "details"}}\`. Act on the **status**:

- **400** — malformed request (bad JSON). Fix the request; do not retry it as is.
- **401** — missing, wrong or revoked key. Stop and ask HQ for a key (Sev 2).
- **403** — your role may not do this. Do not retry. If you think you should be allowed, escalate (Sev 3).
- **404** — not found, or not yours to see. Check the id; another client's data always answers 404.
- **409** — \`version_conflict\`: someone saved first. Read again, merge your change, retry with the new \`expectedVersion\`.
- **413** — body too large. Split it.
- **422** — validation failed, PII refused, or a locked constant. Read \`details\` and fix the input. Never resend PII.
- **429** — rate limited. Wait the time in the message, then retry.
- **5xx** — server problem. Retry after 2 s, 8 s, 30 s. After the third failure, escalate (Sev 2).

Log every failure as an event (\`POST /api/v1/events\`) so patterns show up on the dashboard.`,
  },
  {
    title: "Scheduled jobs (cron): schedules, time zones and silent failures",
    category: "tool-guide",
    tags: ["cron", "scheduling", "time-zones"],
    author: "Sam",
    content: `Most "the reminder never went out" escalations are cron problems. Check in this order:

1. **The expression.** \`0 17 * * 1-5\` is 17:00 Monday to Friday. Fields: minute, hour, day of month, month, day of week. Use a cron explainer before saving a new one.
2. **The time zone.** Schedules run in UTC unless the job says otherwise. 17:00 UTC is midday in New York in winter. Store the client's time zone in core memory and convert explicitly.
3. **Daylight saving.** A job at 02:30 local time is skipped once a year and runs twice once a year. Schedule between 03:00 and 23:00 local.
4. **Did it run?** Look for the job's event in \`GET /api/v1/events\`. No event means it never started; a failure event means it started and broke.
5. **Overlaps.** A job that takes longer than its interval runs twice at once. Make jobs safe to run twice (use \`sourceTraceId\` when they write memories).

If a job failed for a customer-facing reminder, send the reminder by hand first, fix the job second.`,
  },
  {
    title: "A2A messages to HQ",
    category: "tool-guide",
    tags: ["a2a", "messaging", "reports"],
    author: "Sybil",
    content: `Agent-to-agent (A2A) messages reach HQ's agents (Sam for customer issues, Sybil for procedures). Use them for reports and questions that are not escalations.

- **Nightly report** to \`field-admin\`: conversations handled, visits booked, escalations opened, anything unusual. One message per night, even if nothing happened ("Quiet day: 4 conversations, no issues").
- **Questions** that can wait a day: ask Sam. Anything a customer is waiting on is an escalation instead.
- **Never** send customer personal data, other clients' information, or credentials over A2A.

Format: a one-line summary first, details below, and the ids (thread, contact, job) HQ needs to find things. No greetings or sign-offs needed.`,
  },
  // ── skill docs ──────────────────────────────────────────────────────────────────────────────
  {
    title: "Smart trigger: when to search and where",
    category: "skill-doc",
    tags: ["retrieval", "smart-trigger", "field-agents"],
    author: "Sage",
    content: `The smart trigger is a zero-token classifier: regular expressions, no model call. It decides whether a message needs context before you answer.

- **\`none\`** — greetings, small talk, simple tasks. Nothing is searched; answer from what is loaded.
- **\`local\`** — past work with this client: "last time", "as we discussed", names, decisions. Searches your own memories, documents and conversations.
- **\`hq\`** — "how do I…", errors ("failed", "not working"), scope ("am I allowed to"), escalation ("is this urgent"), tools ("never used this before"). Searches this knowledge base.

Internal agents have \`shared\` (the team's memory) where field agents have \`hq\`.

## Gotchas

- The trigger is cheap; call it for every inbound message. \`POST /api/v1/trigger\` then \`POST /api/v1/retrieve\` with the same message.
- A miss (\`none\` when you clearly needed context) is worth reporting as a Sev 4 so the patterns get better.
- Search results you actually use count toward the entry's access count — that is how HQ learns which entries matter.`,
  },
  {
    title: "The scratchpad (WORKING document)",
    category: "skill-doc",
    tags: ["scratchpad", "documents", "memory"],
    author: "Sage",
    content: `Your WORKING document is your scratchpad: what you are doing right now, in at most **2000 characters**.

## What belongs there

- The task in progress and the next step.
- Open questions you are waiting on, with who you asked.
- Anything you must not forget before the session ends.

## What does not

- Finished work (move it to a memory or drop it).
- Customer personal data.
- Copies of knowledge base entries — link the title instead.

## How to write it

\`PUT /api/v1/agents/me/documents/working\` with \`{content, expectedVersion}\`. Over 2000 characters is refused with \`422\`; trim before saving. A \`409\` means the scratchpad changed since you read it (another session of yours, or HQ): read it, merge, save again.`,
  },
  {
    title: "Booking skill: scheduling visits without double-booking",
    category: "skill-doc",
    tags: ["booking", "calendar", "scheduling"],
    author: "Sam",
    content: `The booking skill reads the client's calendar and books visits inside the client's booking rules (core memory).

## Steps

1. **Offer two or three concrete windows**, not an open question. "Thursday 8–10 or Friday 1–3?"
2. **Re-check availability right before booking.** Calendars change while customers think.
3. **Book, then confirm** with the reminder template. Include the window, the address on file and how to reschedule.
4. **Store the commitment** in working memory if you promised a follow-up.

## Common gotchas

- **Time zones**: the calendar stores UTC. Always speak in the client's local time.
- **Buffers**: travel time between visits is part of the booking rules; a visit that ends at 10:00 does not free 10:00.
- **Emergencies** (no hot water in winter, active leaks) go ahead of the queue only if the client's rules say so; otherwise escalate (Sev 2) and tell the customer when they will hear back.
- **Rescheduling inside 24 hours** may carry a fee. Never waive it yourself.

For anything the skill cannot book (multiple locations, commercial jobs), send the discovery link: {{booking.discovery}}.`,
  },
];

/** `{{key}}` → the locked constant's value (keys HQ removed stay visible, so the gap is noticed). */
export function fillConstants(text: string, constants: Map<string, string>): string {
  return text.replace(/\{\{([a-z0-9._-]+)\}\}/g, (m, key: string) => constants.get(key) ?? m);
}

/**
 * Loads the starter knowledge base (system role: no caller, authors named explicitly). Embeddings
 * come from the local embedder; with a remote provider configured the rows are left for the
 * backfill, so a first start never waits on a network call. Entries whose title is already
 * published are left alone.
 */
export async function seedKnowledgeDemo(tx: Queryable): Promise<number> {
  const constants = new Map(
    (await tx.query<{ key: string; value: string }>("select key, value from locked_constants")).map((c) => [c.key, c.value]),
  );
  const entries = DEMO_KNOWLEDGE.map((e) => ({
    ...e,
    content: fillConstants(e.content, constants),
    revision: e.revision ? { ...e.revision, content: fillConstants(e.revision.content, constants) } : undefined,
  }));
  const provider = getEmbeddingProvider();
  const embed = async (texts: string[]) =>
    provider.name === "local" ? (await provider.embed(texts)).map(toVectorLiteral) : texts.map(() => null);
  const vectors = await embed(entries.map((e) => knowledgeEmbeddingText(e)));
  const revised = await embed(entries.map((e) => (e.revision ? knowledgeEmbeddingText({ title: e.title, content: e.revision.content }) : "")));

  let created = 0;
  for (const [i, e] of entries.entries()) {
    const [row] = await tx.query<{ id: string }>(
      `insert into knowledge_entries (title, content, category, tags, created_by, updated_by, embedding)
       values ($1, $2, $3, $4::text[], $5, $5, $6::vector)
       on conflict (lower(btrim(title))) where status = 'published' do nothing
       returning id`,
      [e.title, e.content, e.category, e.tags, e.author, vectors[i]],
    );
    if (!row) continue;
    created++;
    if (e.revision) {
      // the trigger keeps version 1 in the history and makes this version 2
      await tx.query("update knowledge_entries set content = $2, updated_by = $3, embedding = $4::vector where id = $1", [
        row.id,
        e.revision.content,
        e.revision.author,
        revised[i],
      ]);
    }
  }
  return created;
}
