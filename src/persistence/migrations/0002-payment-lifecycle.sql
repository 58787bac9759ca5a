-- Refunds, products and prices, payment-link prices, the test processor's transactions, lifecycle indexes.

CREATE TABLE refunds (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  payment_id text NOT NULL REFERENCES payments(id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  reason text CHECK (reason IN ('requested_by_customer', 'duplicate', 'fraudulent')),
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  created_by text,
  failure_reason text,
  processor_refund_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX refunds_account ON refunds (account_id, mode, created_at DESC);
CREATE INDEX refunds_payment ON refunds (payment_id);

CREATE TABLE products (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  name text NOT NULL,
  description text,
  active boolean NOT NULL,
  default_price_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX products_account ON products (account_id, mode, created_at DESC);

CREATE TABLE prices (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  product_id text NOT NULL REFERENCES products(id),
  currency text NOT NULL,
  unit_amount bigint NOT NULL CHECK (unit_amount >= 0),
  active boolean NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX prices_product ON prices (product_id);

ALTER TABLE payment_links ADD COLUMN updated_at timestamptz;
CREATE INDEX payment_links_account ON payment_links (account_id, mode, created_at DESC);

-- The periodic jobs look only at payments waiting on something.
CREATE INDEX payments_processing ON payments (created_at) WHERE status = 'processing';
CREATE INDEX payments_requires_capture ON payments (created_at) WHERE status = 'requires_capture';
CREATE INDEX events_account_type ON events (account_id, mode, type, created_at DESC);

-- What the built-in test processor remembers of each transaction, as Braintree's sandbox does.
-- payment_id is our payment id, sent as the order id, so an unknown outcome can be found again.
CREATE TABLE test_processor_transactions (
  id text PRIMARY KEY,
  payment_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('authorized', 'submitted_for_settlement', 'settled', 'voided', 'processor_declined')),
  currency text NOT NULL,
  amount_authorized bigint NOT NULL,
  amount_captured bigint NOT NULL DEFAULT 0,
  amount_refunded bigint NOT NULL DEFAULT 0 CHECK (amount_refunded <= amount_captured),
  authorization_result jsonb NOT NULL,
  settles_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE INDEX test_processor_transactions_payment ON test_processor_transactions (payment_id, created_at DESC);

CREATE TABLE test_processor_refunds (
  id text PRIMARY KEY,
  transaction_id text NOT NULL REFERENCES test_processor_transactions(id),
  refund_id text NOT NULL UNIQUE,
  amount bigint NOT NULL,
  created_at timestamptz NOT NULL
);
