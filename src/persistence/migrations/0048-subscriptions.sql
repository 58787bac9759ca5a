-- Recurring billing (docs/billing.md): test clocks, subscriptions and their invoices, each invoice
-- charged by at most one payment under way or won.

CREATE TABLE test_clocks (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL CHECK (mode = 'test'),
  name text,
  frozen_time timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('ready', 'advancing')),
  created_at timestamptz NOT NULL
);
CREATE INDEX test_clocks_scope_created ON test_clocks (account_id, mode, created_at DESC, id DESC);

-- A customer on a test clock is billed by the clock's time, not the wall clock's.
ALTER TABLE customers ADD COLUMN test_clock_id text REFERENCES test_clocks (id);

CREATE TABLE subscriptions (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  customer_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('incomplete', 'trialing', 'active', 'past_due', 'canceled', 'unpaid')),
  price_id text NOT NULL REFERENCES prices (id),
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 10000),
  currency text NOT NULL,
  default_payment_method_id text,
  billing_cycle_anchor timestamptz NOT NULL,
  current_period_start timestamptz NOT NULL,
  current_period_end timestamptz NOT NULL CHECK (current_period_end > current_period_start),
  trial_start timestamptz,
  trial_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  canceled_at timestamptz,
  ended_at timestamptz,
  latest_invoice_id text,
  -- Proration lines of changes made mid-period, billed on the next invoice.
  pending_invoice_lines jsonb NOT NULL DEFAULT '[]',
  checkout_session_id text,
  test_clock_id text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX subscriptions_scope_created ON subscriptions (account_id, mode, created_at DESC, id DESC);
CREATE INDEX subscriptions_customer ON subscriptions (customer_id);
-- What the renewal job looks at: live subscriptions by the end of their period.
CREATE INDEX subscriptions_renewal_due ON subscriptions (current_period_end)
  WHERE status IN ('trialing', 'active', 'past_due') AND test_clock_id IS NULL;

CREATE TABLE invoices (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  customer_id text NOT NULL,
  subscription_id text REFERENCES subscriptions (id),
  status text NOT NULL CHECK (status IN ('draft', 'open', 'paid', 'void', 'uncollectible')),
  billing_reason text NOT NULL CHECK (billing_reason IN ('subscription_create', 'subscription_cycle', 'subscription_update', 'manual')),
  currency text NOT NULL,
  lines jsonb NOT NULL,
  subtotal integer NOT NULL,
  total integer NOT NULL,
  amount_due integer NOT NULL CHECK (amount_due >= 0),
  amount_paid integer NOT NULL DEFAULT 0 CHECK (amount_paid >= 0 AND amount_paid <= amount_due),
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  attempt_count integer NOT NULL DEFAULT 0,
  next_payment_attempt timestamptz,
  payment_id text,
  test_clock_id text,
  created_at timestamptz NOT NULL,
  finalized_at timestamptz,
  paid_at timestamptz,
  voided_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX invoices_scope_created ON invoices (account_id, mode, created_at DESC, id DESC);
CREATE INDEX invoices_subscription ON invoices (subscription_id, created_at DESC);
-- One invoice per subscription period, whichever instance renews it.
CREATE UNIQUE INDEX invoices_one_per_period ON invoices (subscription_id, period_start)
  WHERE billing_reason IN ('subscription_create', 'subscription_cycle');
-- What the charging job looks at: open invoices by their next attempt.
CREATE INDEX invoices_attempt_due ON invoices (next_payment_attempt) WHERE status = 'open' AND test_clock_id IS NULL;

-- A payment may pay an invoice; an invoice holds at most one payment under way or won, so a retried
-- charge never doubles. A new attempt may start only after the last one failed.
ALTER TABLE payments ADD COLUMN invoice_id text;
CREATE UNIQUE INDEX payments_one_holding_per_invoice ON payments (invoice_id)
  WHERE invoice_id IS NOT NULL AND status <> 'failed';
