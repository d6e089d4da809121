-- The activity log's search finds what the log shows. Entries are worded
-- from their events when read ("-5 (sale) Milk, by Sam, note: table 4"), while the search
-- still matched the text stored when they were written ("Updated inventory item: Milk"), so
-- "sale", "-5" or a note's words found nothing. Each entry now keeps the words it shows:
-- `search_text`, the Action column's word and the sentence's (delta and reason, item, the
-- fields an edit changed old -> new, note, a revert's why, the import's file), and
-- `search_who`, the people it names (its author, who counted a stocktake's numbers), apart so
-- a guest's search leaves them out. The functions below word them; the activity and stocktake
-- projections call them for every entry they write (server/activity/search-words.ts), and the
-- backfill here calls them for the entries already written, so a replay gives the same rows.
-- Prices are plain numbers (4.50): the store's currency is put on them when a sentence is read.

-- One value of an edit as the sentence shows it: "(none)" when empty, a price with two decimals.
create function activity_search_value(p_field text, p_value jsonb) returns text language sql immutable as $$
  select case
    when p_value is null or jsonb_typeof(p_value) = 'null' or p_value = '""'::jsonb then '(none)'
    when p_field = 'price' and jsonb_typeof(p_value) = 'number' then round((p_value #>> '{}')::numeric, 2)::text
    else p_value #>> '{}' end
$$;

-- An edit's changes, field by field in the sentence's order: "price 4.50 → 4.90, threshold 5 → 8".
-- A category is named by id in the event: the field is said, its names are not known here.
create function activity_search_fields(p_changes jsonb) returns text language sql stable as $$
  select string_agg(
    case c.key when 'name' then 'name' when 'sku' then 'sku' when 'categoryId' then 'category' when 'price' then 'price'
      when 'threshold' then 'threshold' when 'expiryDate' then 'expiry' when 'barcode' then 'barcode'
      when 'description' then 'description' when 'imageUrl' then 'picture' else c.key end
    || case
      when c.key = 'imageUrl' then case
        when coalesce(c.value ->> 'from', '') = '' and coalesce(c.value ->> 'to', '') <> '' then ' added'
        when coalesce(c.value ->> 'from', '') <> '' and coalesce(c.value ->> 'to', '') = '' then ' removed'
        else ' changed' end
      when c.key = 'categoryId' then ''
      else ' ' || activity_search_value(c.key, c.value -> 'from') || ' → ' || activity_search_value(c.key, c.value -> 'to') end,
    ', ' order by coalesce(array_position(array['name', 'sku', 'categoryId', 'price', 'threshold', 'expiryDate', 'barcode',
      'description', 'imageUrl'], c.key), 99), c.key)
  from jsonb_each(coalesce(p_changes, '{}'::jsonb)) c
$$;

-- An entry's words, lower-cased. `p_reverted`: the words of the entry a revert takes back
-- (null: gone). Stocktake entries take theirs from their stored details, less the counters.
create function activity_search_text(p_action text, p_type text, p_data jsonb, p_meta jsonb, p_name text, p_details text,
  p_reverted text) returns text language sql stable as $$
  select lower(concat_ws(' ',
    case p_action when 'create' then 'created' when 'update' then 'updated' when 'delete' then 'deleted' end,
    case when p_meta ? 'reverts' then 'reverted ' || coalesce(p_reverted, 'an earlier change to ' || p_name) end,
    case
      when p_meta ? 'reverts' and p_type in ('ItemUpdated', 'CategoryUpdated') then ': ' || activity_search_fields(p_data -> 'changes')
      when p_meta ? 'reverts' then null
      when p_type = 'StockAdjusted' then
        case when (p_data ->> 'delta')::numeric > 0 then '+' || (p_data ->> 'delta')
          when (p_data ->> 'delta')::numeric = 0 then '±0' else p_data ->> 'delta' end
        || ' (' || coalesce(p_data ->> 'reason', '') || ') ' || p_name
      when p_type = 'ItemCreated' then 'created ' || p_name || ': ' || coalesce(p_data ->> 'quantity', '') || ' in stock, price '
        || activity_search_value('price', p_data -> 'price') || ', threshold ' || coalesce(p_data ->> 'threshold', '')
      when p_type = 'ItemUpdated' then 'edited ' || p_name || ': ' || coalesce(activity_search_fields(p_data -> 'changes'), '')
      when p_type = 'ItemDeleted' then 'deleted ' || p_name || coalesce(' (sku ' || nullif(p_data ->> 'sku', '') || ')', '')
      when p_type = 'CategoryCreated' then 'created category ' || p_name
      when p_type = 'CategoryUpdated' then 'edited category ' || p_name || ': ' || coalesce(activity_search_fields(p_data -> 'changes'), '')
      when p_type = 'CategoryDeleted' then 'deleted category ' || p_name
      else regexp_replace(coalesce(p_details, ''), ', counted by .*$', '') end,
    case when p_type = 'StockAdjusted' then 'note: ' || nullif(btrim(p_data ->> 'note'), '') end,
    'why: ' || nullif(btrim(p_meta ->> 'revertReason'), ''),
    '(imported from ' || nullif(p_meta ->> 'importFile', '') || ')'))
$$;

-- The people an entry names, lower-cased: its author, and whoever counted what a stocktake posted.
create function activity_search_who(p_user_name text, p_type text, p_meta jsonb, p_details text) returns text
  language sql stable as $$
  select lower(concat_ws(' ', p_user_name, p_meta -> 'countedBy' ->> 'name',
    case when p_type = 'StocktakeLinesApproved' then substring(p_details from ', counted by (.*)$') end))
$$;

alter table activity_log add column search_text text not null default '';
alter table activity_log add column search_who text not null default '';

-- The entries already written, as the projection words them: a revert after the entry it
-- takes back (whose words it repeats), along chains of reverts of reverts.
with recursive words as (
  select a.id, activity_search_text(a.action, e.type, e.data, e.metadata, a.resource_name, a.details, null) as words
  from activity_log a join events e on e.position = a.position
  where not (e.metadata ? 'reverts')
    or not exists (select 1 from activity_log o where o.id = left(replace(e.metadata ->> 'reverts', '-', ''), 16))
  union all
  select a.id, activity_search_text(a.action, e.type, e.data, e.metadata, a.resource_name, a.details, w.words)
  from words w
  join events e on e.metadata ? 'reverts' and left(replace(e.metadata ->> 'reverts', '-', ''), 16) = w.id
  join activity_log a on a.position = e.position
)
update activity_log a set search_text = w.words, search_who = activity_search_who(a.user_name, e.type, e.metadata, a.details)
from words w, events e
where w.id = a.id and e.position = a.position;

-- Every writer names both from now on.
alter table activity_log alter column search_text drop default;
alter table activity_log alter column search_who drop default;

-- The search's index: the old one covered the stored text, which the search no longer reads.
-- Staff search both columns; a guest's search also requires the match in `search_text`,
-- which this index narrows too (what matches there matches the whole).
drop index if exists activity_log_search;
create index activity_log_search_words on activity_log using gin ((search_text || ' ' || search_who) public.gin_trgm_ops);
