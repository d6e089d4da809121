-- The stamp of a cached principal (server/auth/principal-cache.ts): the stream versions of
-- the rows it is made of, its user's row, its role's row (custom roles only) and the settings
-- row, null where there is none. Routes that accept a cached principal read this beside their
-- own query and resolve afresh when it moved. A function, so its three primary-key lookups
-- are planned once per connection instead of with every request's statement.
create function principal_stamp(p_uid text, p_role text) returns integer[] language plpgsql stable as $$
begin
  return array[
    (select version from users where id = p_uid),
    (select version from roles where id = p_role),
    (select version from settings where id = 1)];
end
$$;
