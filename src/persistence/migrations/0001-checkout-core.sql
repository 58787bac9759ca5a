-- Accounts, keys, payment links, checkout sessions, payments, events, test-card nonces.

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  default_currency text NOT NULL,
  display_name text,
  logo_url text,
  accent_color text,
  support_email text,
  created_at timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  kind text NOT NULL CHECK (kind IN ('secret', 'publishable')),
  prefix text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  last4 text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE payment_links (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  slug text NOT NULL UNIQUE,
  currency text NOT NULL,
  line_items jsonb NOT NULL,
  active boolean NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE checkout_sessions (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'complete', 'expired')),
  currency text NOT NULL,
  line_items jsonb NOT NULL,
  amount_subtotal bigint NOT NULL,
  amount_total bigint NOT NULL,
  customer_email text,
  success_url text,
  cancel_url text,
  capture_method text NOT NULL,
  payment_method_types jsonb NOT NULL,
  locale text,
  metadata jsonb NOT NULL,
  client_reference_id text,
  payment_link_id text REFERENCES payment_links(id),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  payment_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX checkout_sessions_account ON checkout_sessions (account_id, mode, created_at DESC);
CREATE INDEX checkout_sessions_open_expiry ON checkout_sessions (expires_at) WHERE status = 'open';

CREATE TABLE payments (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  checkout_session_id text NOT NULL REFERENCES checkout_sessions(id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'requires_action', 'requires_capture', 'succeeded', 'failed', 'canceled')),
  capture_method text NOT NULL,
  amount_captured bigint NOT NULL DEFAULT 0,
  amount_refunded bigint NOT NULL DEFAULT 0 CHECK (amount_refunded <= amount_captured),
  customer_email text,
  payment_method jsonb,
  processor text NOT NULL,
  processor_transaction_id text,
  processor_response jsonb,
  failure_code text,
  decline_code text,
  three_d_secure jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payments_account ON payments (account_id, mode, created_at DESC);
-- The guarantee against double charging: a session holds at most one payment that is under
-- way or has won. A second attempt may start only after the first has failed.
CREATE UNIQUE INDEX payments_one_holding_per_session ON payments (checkout_session_id)
  WHERE status <> 'failed';

CREATE TABLE events (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  type text NOT NULL,
  object_id text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_account ON events (account_id, mode, created_at DESC);
CREATE INDEX events_object ON events (object_id);

-- Tokenized test cards: brand, last4, expiry and a keyed fingerprint; never the number.
CREATE TABLE test_card_nonces (
  nonce text PRIMARY KEY,
  payment_method jsonb NOT NULL,
  behavior text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE install_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);
