-- Search functions nothing calls any more: reciprocal-rank fusion and the first interactions search
-- gave way to weighted score fusion (public.search_interactions), and the vector candidates of
-- interactions take the embedding model since vectors record theirs. From here on, every function
-- and view has its one live definition under supabase/schema/; migrations only drop old signatures.
drop function if exists public.hybrid_search_interactions(text, vector, int, uuid, uuid, float8, float8, float8, int, int, int);
drop function if exists mhq.rrf_fuse(uuid[], uuid[], float8[], int, float8, float8);
drop function if exists mhq.interaction_text_candidates(text, uuid, uuid, int, int);
drop function if exists mhq.interaction_vector_candidates(vector, uuid, uuid, int);
drop function if exists mhq.interaction_vector_exact(vector, uuid, uuid, int);
