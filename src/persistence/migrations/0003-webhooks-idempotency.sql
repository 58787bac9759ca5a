-- Idempotency records, rate-limit counters, webhook endpoints, deliveries and their attempt log.

-- One row per (account, mode, Idempotency-Key): claimed while the request runs, then holding
-- the exact response to replay. Rows older than 24 hours are free for reuse and purged.
CREATE TABLE idempotency_records (
  account_id text NOT NULL,
  mode text NOT NULL,
  key text NOT NULL,
  request_fingerprint text NOT NULL,
  locked_until timestamptz,
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, mode, key)
);
CREATE INDEX idempotency_records_created ON idempotency_records (created_at);

-- A fixed one-second window per account and mode, shared by every instance.
CREATE TABLE rate_limit_counters (
  account_id text NOT NULL,
  mode text NOT NULL,
  window_second bigint NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (account_id, mode, window_second)
);

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  url text NOT NULL,
  description text,
  enabled_events jsonb NOT NULL,
  -- The signing secret must be usable, so it cannot be hashed; see docs/webhooks.md.
  secret text NOT NULL,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, mode, created_at DESC);

-- The outbox: one row per event and subscribed endpoint, written in the event's transaction.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES events(id),
  account_id text NOT NULL,
  mode text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'retrying', 'abandoned')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  lease_token text,
  lease_until timestamptz,
  last_response_status integer,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'retrying');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);

-- The delivery log; the primary key makes "the same attempt twice" impossible to record.
CREATE TABLE webhook_delivery_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
  response_status integer,
  response_body text,
  duration_ms integer NOT NULL,
  error text,
  started_at timestamptz NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);
