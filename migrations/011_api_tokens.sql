-- API tokens: a projection of the api-token-<id> streams. Only the sha256 of a
-- token is stored; the token itself is shown once. Last use is delivery-style state kept
-- beside it (not rebuilt from events: a use is not an event).
create table api_tokens (
  id uuid primary key,
  name text not null,
  user_id text not null,
  -- shown in lists; the role is the fallback when the user has no account row (claims only)
  user_name text not null,
  role text not null,
  token_hash text not null,
  permissions text[] not null,
  expires_at timestamptz not null,
  created_at timestamptz not null,
  revoked_at timestamptz,
  version integer not null
);
create unique index api_tokens_hash on api_tokens (token_hash);
create index api_tokens_user on api_tokens (user_id);

create table api_token_usage (
  token_id uuid primary key,
  last_used_at timestamptz not null
);
