-- Saved payment methods (`pm_…`): a customer's cards as the processor keeps them (its token) and as
-- they may be shown (brand, last4, expiry, fingerprint); never the number or the CVC. A session's
-- `payment_method_save` says whether paying it saves the card (`on`) or the shopper decides
-- (`shopper_choice`). `test_saved_cards` is the built-in test processor's vault, as Braintree's
-- vault is Braintree's.

CREATE TABLE payment_methods (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  customer_id text NOT NULL,
  type text NOT NULL,
  brand text,
  last4 text,
  exp_month integer,
  exp_year integer,
  fingerprint text,
  processor text NOT NULL,
  processor_token text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX payment_methods_customer ON payment_methods (customer_id, created_at DESC, id DESC);

ALTER TABLE checkout_sessions
  ADD COLUMN payment_method_save text CHECK (payment_method_save IN ('on', 'shopper_choice'));

CREATE TABLE test_saved_cards (
  token text PRIMARY KEY,
  customer_id text NOT NULL,
  payment_method jsonb NOT NULL,
  behavior text NOT NULL,
  created_at timestamptz NOT NULL
);
