-- The words that occur in items' search text (letters only, 3 to 40 of them), for
-- typo-tolerant search: a misspelt word is compared by trigram similarity with this short
-- list, and items are then found by the real words, which the items GIN index answers fast.
-- Comparing misspellings with every item's whole text instead took up to 0.6 s at a million
-- items. The list only grows: a word no item uses any more simply finds nothing. It is
-- written beside the items and categories projections but is not one of their tables (a
-- superset of a replay's words is just as right), so projections:verify and rebuild leave it.
create table search_words (word text primary key);
create index search_words_trgm on search_words using gin (word public.gin_trgm_ops);
insert into search_words (word)
select distinct w from items, regexp_split_to_table(search_text, '[^[:alpha:]]+') w
where length(w) between 3 and 40 order by w;
