-- Transfers of stock between sites (streams transfer-{id}, shared/transfers.ts): a header per
-- transfer and its lines, kept by server/transfers/projection.ts for the Transfers page and
-- GET /api/transfers. What the lines' units did to each item (shipped from a location, in
-- transit, received at one, written off) is on the items' own streams and in items,
-- stock_levels and items.in_transit, in the same transaction.
create table transfers (
  id uuid primary key,
  -- The store's running number (#1, #2…), what people call a transfer by; given at creation.
  number integer not null,
  from_site_id uuid not null,
  to_site_id uuid not null,
  note text,
  -- draft, shipped, partly-received, received, cancelled (shared/transfers.ts TransferStatus).
  status text not null,
  line_count integer not null,
  -- Units on its lines; of them, received, written off, and still in transit.
  units integer not null,
  received integer not null default 0,
  written_off integer not null default 0,
  in_transit integer not null default 0,
  created_by_uid text,
  created_by text not null,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  shipped_at timestamptz,
  -- When nothing was left in transit, or when it was cancelled.
  closed_at timestamptz
);
create unique index transfers_number_unique on transfers (number);
create index transfers_from_site on transfers (from_site_id, number desc);
create index transfers_to_site on transfers (to_site_id, number desc);
create index transfers_status on transfers (status, number desc);

create table transfer_lines (
  transfer_id uuid not null,
  -- The line's place in the transfer, as drafted (from 1).
  line_no integer not null,
  item_id uuid not null,
  from_location_id uuid not null,
  quantity integer not null,
  received integer not null default 0,
  written_off integer not null default 0,
  primary key (transfer_id, item_id),
  constraint transfer_lines_within check (received >= 0 and written_off >= 0 and received + written_off <= quantity)
);
create unique index transfer_lines_order on transfer_lines (transfer_id, line_no);
create index transfer_lines_item on transfer_lines (item_id);
