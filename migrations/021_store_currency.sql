-- The store's currency and the locale prices are written for. Existing
-- stores keep what every screen showed so far: US dollars written for en-US, the defaults of
-- shared/accounts.ts; a rebuild of the projection from events gives the same row.
alter table settings add column currency text not null default 'USD';
alter table settings add column locale text not null default 'en-US';
