// Sites and locations every store has from the start: what existing stores moved into
// (migrations/023_sites_and_stock_levels.sql), and where stock goes when an event or a
// request names no location (events written before places existed, old clients).
export const MAIN_SITE_ID = '00000000-0000-4000-8000-000000000001';
export const MAIN_LOCATION_ID = '00000000-0000-4000-8000-000000000002';
