-- Bank debits (ACH, ADR 0107): a settled debit the bank returned afterwards (R01 insufficient funds,
-- R02 account closed…), as the API shows it: {code, reason, returned_at}. The payment stays
-- succeeded; nothing remains to refund.
ALTER TABLE payments ADD COLUMN ach_return jsonb;

-- The test processor's bank debits, as Braintree's sandbox keeps an ACH sale beside its
-- transaction: when it settles, and what the test account does then (settles; settles, then is
-- returned with return_code at returns_at; or is declined with return_code instead of settling).
-- Each news is reported once (settle_reported_at, return_reported_at). No account number: the test
-- account's behaviour was decided when it was tokenized.
CREATE TABLE test_processor_bank_debits (
  transaction_id text PRIMARY KEY,
  payment_id text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('settles', 'returned', 'declined')),
  return_code text,
  settles_at timestamptz NOT NULL,
  returns_at timestamptz,
  settle_reported_at timestamptz,
  return_reported_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX test_processor_bank_debits_settle_due ON test_processor_bank_debits (settles_at) WHERE settle_reported_at IS NULL;
CREATE INDEX test_processor_bank_debits_return_due ON test_processor_bank_debits (returns_at)
  WHERE outcome = 'returned' AND return_reported_at IS NULL;

-- A test bank debit declined or returned is `settlement_declined`, as Braintree's: never refunded.
ALTER TABLE test_processor_transactions DROP CONSTRAINT test_processor_transactions_status_check;
ALTER TABLE test_processor_transactions ADD CONSTRAINT test_processor_transactions_status_check
  CHECK (status IN ('authorized', 'submitted_for_settlement', 'settled', 'voided', 'processor_declined', 'settlement_declined'));
