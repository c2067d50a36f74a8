-- A speaker as a person's name for the smart trigger's vocabulary, or null: letters (with
-- apostrophes, dots, hyphens and spaces between them), 2–100 characters, at most four words, and
-- not a role label that integrations use as a speaker ("user", "assistant", "agent", "customer"…).
create or replace function mhq.person_name(p_speaker text) returns text
language sql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case
           when s.n is null or char_length(s.n) not between 2 and 100 then null
           when s.n !~ '^[[:alpha:]][[:alpha:]''’. -]*[[:alpha:].]$' then null
           when array_length(regexp_split_to_array(s.n, ' '), 1) > 4 then null
           when lower(s.n) = any ('{user,users,assistant,agent,ai,bot,chatbot,system,customer,client,contact,caller,callee,
             human,me,you,i,we,us,them,unknown,anonymous,operator,support,staff,team,lead,prospect,visitor,guest,host,
             moderator,admin,representative,rep,model,narrator,speaker,other,owner,manager,sales,tool,function,
             interviewer,interviewee,patient,member}'::text[]) then null
           else s.n
         end
    from (select nullif(regexp_replace(btrim(coalesce(p_speaker, '')), '\s+', ' ', 'g'), '') as n) s
$$;

comment on function mhq.person_name(text) is 'a speaker as a person''s name for the trigger vocabulary, or null for role labels and ids';
