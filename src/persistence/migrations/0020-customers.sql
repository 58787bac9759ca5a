-- Customers (`cus_…`): returning shoppers a merchant keeps. Checkout sessions and payments point to
-- one; deleting a customer removes its row and sets those pointers to null (the payments stay).
-- `customer_creation` says whether a session makes a customer of its shopper.

CREATE TABLE customers (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  email text,
  name text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX customers_scope_created ON customers (account_id, mode, created_at DESC, id DESC);
CREATE INDEX customers_scope_email ON customers (account_id, mode, lower(email), created_at DESC);

ALTER TABLE checkout_sessions
  ADD COLUMN customer_id text,
  ADD COLUMN customer_creation text NOT NULL DEFAULT 'if_required' CHECK (customer_creation IN ('always', 'if_required'));
CREATE INDEX checkout_sessions_customer ON checkout_sessions (customer_id) WHERE customer_id IS NOT NULL;

ALTER TABLE payments ADD COLUMN customer_id text;
CREATE INDEX payments_customer ON payments (customer_id, created_at DESC, id DESC) WHERE customer_id IS NOT NULL;
