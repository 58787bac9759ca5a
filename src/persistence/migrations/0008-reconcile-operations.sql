-- Capture and void in flight: the intent is written before the processor call and removed once its
-- answer is recorded, so a lost answer leaves a row that reconciliation resolves.

CREATE TABLE payment_operations_in_flight (
  payment_id text PRIMARY KEY REFERENCES payments(id),
  operation text NOT NULL CHECK (operation IN ('capture', 'void')),
  amount bigint,
  started_at timestamptz NOT NULL
);
CREATE INDEX payment_operations_in_flight_started ON payment_operations_in_flight (started_at);
CREATE INDEX refunds_pending_created ON refunds (created_at) WHERE status = 'pending';
