-- Payments that reconciliation failed because the processor did not know them once their lease had
-- run out. The processor may still create such a charge late (a gateway that finishes a request its
-- client gave up on), so each is asked about again until `check_until`, and a charge found then is
-- voided or refunded: the shopper is never charged twice for one session.

CREATE TABLE payment_late_answer_checks (
  payment_id text PRIMARY KEY REFERENCES payments(id),
  next_check_at timestamptz NOT NULL,
  check_until timestamptz NOT NULL
);
CREATE INDEX payment_late_answer_checks_due ON payment_late_answer_checks (next_check_at);
