-- Typo-tolerant knowledge search: pg_trgm (a contrib extension of every PostgreSQL, and of PGlite)
-- measures how alike two words are by their three-letter pieces, so "escalaton severty" can be
-- answered with "did you mean: escalation severity" (mhq.knowledge_spelling compares a search's words
-- with the words of the published titles and tags).
create extension if not exists pg_trgm;
