-- Interactions are indexed a set at a time (mhq.index_interactions), each text analysed once; the
-- per-turn context function it replaces is no longer called.
drop function if exists mhq.interaction_context_terms(uuid, uuid, uuid, uuid, uuid);
