-- ── search statements planned once per session ─────────────────────────────────────────────────
-- A PL/pgSQL statement keeps its plan between calls only when Postgres chooses the generic plan.
-- It plans the first five calls with the parameter values filled in (custom plans) and then keeps
-- the generic plan only if it is estimated no dearer than those. The search statements lose that
-- comparison: with the values known, the branch that is switched off (an agent's conversations
-- or a client's, one memory scope or the other) is pruned from the plan, so the custom plan
-- always looks cheaper, and every call was planned again (about 1 ms of a conversations search at
-- 10k turns, half a millisecond of a memory search, measured on the embedded database).
--
-- Their plans do not depend on the values: an index probe per query word, a primary-key probe per
-- candidate, an HNSW walk per width (the vector functions already forbid every other plan). So
-- these functions plan their statements once per session, generically; the branch switched off
-- becomes a one-time filter checked when the statement runs. Results are unchanged.

alter function mhq.search_query_terms(text, uuid, text) set plan_cache_mode = force_generic_plan;
alter function mhq.memory_lexical_candidates(text, text, uuid, int) set plan_cache_mode = force_generic_plan;
alter function mhq.memory_corpus_size(text, uuid) set plan_cache_mode = force_generic_plan;
alter function mhq.memory_vector_candidates(vector, text, text, uuid, timestamptz, int) set plan_cache_mode = force_generic_plan;
alter function mhq.memory_vector_exact(vector, text, text, uuid, timestamptz, int) set plan_cache_mode = force_generic_plan;
alter function public.search_memories(text, vector, text, int, text, uuid, float8, float8, int, timestamptz)
  set plan_cache_mode = force_generic_plan;

alter function mhq.knowledge_lexical_candidates(text, text, text[], boolean, int) set plan_cache_mode = force_generic_plan;
alter function mhq.published_knowledge_vector_candidates(vector, text, int) set plan_cache_mode = force_generic_plan;
alter function public.search_knowledge(text, vector, text, int, text, text[], boolean, float8, float8, int)
  set plan_cache_mode = force_generic_plan;

alter function mhq.interaction_lexical_candidates(text, uuid, uuid, int) set plan_cache_mode = force_generic_plan;
alter function mhq.interaction_vector_candidates(vector, text, uuid, uuid, int) set plan_cache_mode = force_generic_plan;
-- The exact ranking of a few conversations, and the check that chooses it, keep the default plan
-- choice: generically planned they were measured slower (an internal agent's conversation search,
-- which takes this path, went from 4 ms to 14 ms on the retrieval bench). Set explicitly, since the
-- calling function's setting would otherwise reach them.
alter function mhq.interaction_vectors_at_most(int, uuid, uuid) set plan_cache_mode = auto;
alter function mhq.interaction_vector_exact(vector, text, uuid, uuid, int) set plan_cache_mode = auto;
alter function public.search_interactions(text, vector, text, int, uuid, uuid, int) set plan_cache_mode = force_generic_plan;

alter function public.search_documents(text, vector, text, int, uuid, float8, float8) set plan_cache_mode = force_generic_plan;
