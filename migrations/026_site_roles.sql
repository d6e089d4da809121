-- Roles per site (shared/site-roles.ts). A user's role holds at every site (`all_sites`, as
-- every account did before) or only at the sites listed in user_site_roles, each with the
-- role held there. Both are kept by the users projection from UserSiteRolesSet on the
-- user's stream, so a rebuild from the log gives the same rows.
alter table users add column all_sites boolean not null default true;

create table user_site_roles (
  user_id text not null,
  site_id uuid not null,
  role text not null,
  -- The order the sites were given in: the first is where the person's stock changes go
  -- when they name no location (their home site).
  position integer not null,
  primary key (user_id, site_id)
);
-- "Is this custom role in use?" looks here too.
create index user_site_roles_role on user_site_roles (role);

-- The principal's stamp gains a fourth version: the custom roles held at sites (the sum of
-- their versions; versions only grow and a role in use is never deleted, so any change to
-- one of them moves it). A change of the site roles themselves moves the user's version.
create or replace function principal_stamp(p_uid text, p_role text) returns integer[] language plpgsql stable as $$
begin
  return array[
    (select version from users where id = p_uid),
    (select version from roles where id = p_role),
    (select version from settings where id = 1),
    (select coalesce(sum(r.version), 0)::integer from user_site_roles g join roles r on r.id = g.role
      where g.user_id = p_uid)];
end
$$;

-- A webhook endpoint's site filter: only events of these sites (and those tied to no site)
-- are delivered to it; empty: every site, as before.
alter table webhook_endpoints add column site_ids uuid[] not null default '{}';


-- Who made a webhook endpoint: it never sends events of sites its maker may not see (their
-- site roles as they are at each delivery). Kept by the webhooks projection from the
-- creation's actor; null for none (the system's own).
alter table webhook_endpoints add column owner_uid text;
update webhook_endpoints w set owner_uid = e.metadata -> 'actor' ->> 'uid'
  from events e where e.stream_id = 'webhook-' || w.id::text and e.stream_version = 1;
