-- Local payment methods (iDEAL, Bancontact…; docs/payments-lifecycle.md): the processor's id of the
-- payment the shopper approves at the bank, which the processor's confirmation names. One payment
-- per processor payment id in a scope.
ALTER TABLE payments ADD COLUMN processor_payment_id text;
CREATE UNIQUE INDEX payments_processor_payment_id ON payments (account_id, mode, processor, processor_payment_id)
  WHERE processor_payment_id IS NOT NULL;
-- Payments waiting for the bank are looked for apart from the others (their 3-hour expiry).
CREATE INDEX payments_awaiting_bank ON payments (created_at, id) WHERE status = 'processing' AND processor_payment_id IS NOT NULL;

-- The test processor's local payments, as Braintree keeps them: approved in the test window, then
-- completed (the notification) some seconds later.
CREATE TABLE test_processor_local_payments (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  payment_method_type text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'failed', 'completed')),
  bic text,
  iban_last4 text,
  completes_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX test_processor_local_payments_due ON test_processor_local_payments (completes_at) WHERE status = 'approved';
