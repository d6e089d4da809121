-- Moves of stock between locations (StockMoved on an item's stream) are entries of the
-- activity log like adjustments: "Moved 3 Hose from Back room to Shelf A". Their words for
-- the log's search are the sentence's without the locations' names, which the event does not
-- carry (a rename would make a replay's words differ from the log's): "moved 3 hose", and the
-- note. The function is migration 022's with that one branch and the move's note added.
create or replace function activity_search_text(p_action text, p_type text, p_data jsonb, p_meta jsonb, p_name text, p_details text,
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
      when p_type = 'StockMoved' then 'moved ' || coalesce(p_data ->> 'quantity', '') || ' ' || p_name
      when p_type = 'ItemCreated' then 'created ' || p_name || ': ' || coalesce(p_data ->> 'quantity', '') || ' in stock, price '
        || activity_search_value('price', p_data -> 'price') || ', threshold ' || coalesce(p_data ->> 'threshold', '')
      when p_type = 'ItemUpdated' then 'edited ' || p_name || ': ' || coalesce(activity_search_fields(p_data -> 'changes'), '')
      when p_type = 'ItemDeleted' then 'deleted ' || p_name || coalesce(' (sku ' || nullif(p_data ->> 'sku', '') || ')', '')
      when p_type = 'CategoryCreated' then 'created category ' || p_name
      when p_type = 'CategoryUpdated' then 'edited category ' || p_name || ': ' || coalesce(activity_search_fields(p_data -> 'changes'), '')
      when p_type = 'CategoryDeleted' then 'deleted category ' || p_name
      else regexp_replace(coalesce(p_details, ''), ', counted by .*$', '') end,
    case when p_type in ('StockAdjusted', 'StockMoved') then 'note: ' || nullif(btrim(p_data ->> 'note'), '') end,
    'why: ' || nullif(btrim(p_meta ->> 'revertReason'), ''),
    '(imported from ' || nullif(p_meta ->> 'importFile', '') || ')'))
$$;
