-- Low stock per site (shared/site-low-stock.ts). An item's own thresholds by site
-- (SiteThresholdSet), kept on its row since every stock decision reads them with it; the
-- low-stock episodes per site (SiteWentLow .. SiteRecovered) beside the item's own
-- (low_stock_episodes); and each user's dismissals of a site's alert. No event before this
-- migration sets or crosses anything per site, so all start empty.
alter table items add column site_thresholds jsonb not null default '{}'::jsonb;

-- One row per time an item went low at a site; the opening event's position names the episode.
create table site_low_episodes (
  started_position bigint primary key,
  item_id uuid not null,
  site_id uuid not null,
  started_at timestamptz not null,
  ended_at timestamptz,
  -- What cleared it, as low_stock_episodes.cleared_by says ('threshold' for a threshold
  -- change, 'deleted' for a deleted item), from the stock movement just before the recovery.
  cleared_by text
);
create unique index site_low_episodes_open on site_low_episodes (item_id, site_id) where ended_at is null;
create index site_low_episodes_site_open on site_low_episodes (site_id) where ended_at is null;
create index site_low_episodes_started on site_low_episodes (started_at);

-- A user's dismissal of one site's alert for an item, for one episode; gone when it recovers.
create table site_alert_dismissals (
  user_id text not null,
  item_id uuid not null,
  site_id uuid not null,
  episode bigint not null,
  dismissed_at timestamptz not null,
  primary key (user_id, item_id, site_id)
);
create index site_alert_dismissals_item on site_alert_dismissals (item_id, site_id);
