-- Disputes (chargebacks) and the evidence answered to them; the test processor's own disputes,
-- which it opens for its dispute test card and decides by the evidence, as Braintree's sandbox does.
-- Only an evidence file's name, type and size are kept: its bytes go to the processor.

CREATE TABLE disputes (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  payment_id text NOT NULL REFERENCES payments(id),
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  reason text NOT NULL,
  status text NOT NULL CHECK (status IN ('needs_response', 'under_review', 'won', 'lost', 'accepted', 'expired')),
  reply_by timestamptz,
  processor text NOT NULL,
  processor_dispute_id text NOT NULL,
  submitted_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (account_id, mode, processor_dispute_id)
);
CREATE INDEX disputes_list ON disputes (account_id, mode, created_at DESC, id DESC);
CREATE INDEX disputes_payment ON disputes (payment_id);

CREATE TABLE dispute_evidence (
  id text PRIMARY KEY,
  dispute_id text NOT NULL REFERENCES disputes(id),
  kind text NOT NULL CHECK (kind IN ('text', 'file')),
  text text,
  category text,
  file_name text,
  content_type text,
  size integer,
  processor_evidence_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX dispute_evidence_dispute ON dispute_evidence (dispute_id, created_at, id);

-- A dispute names its transaction: find the payment by it.
CREATE INDEX payments_processor_transaction ON payments (processor_transaction_id) WHERE processor_transaction_id IS NOT NULL;

CREATE TABLE test_processor_disputes (
  id text PRIMARY KEY,
  transaction_id text NOT NULL UNIQUE REFERENCES test_processor_transactions(id),
  payment_id text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  reason text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'accepted', 'disputed', 'won', 'lost', 'expired')),
  -- When the bank opens it (some seconds after capture); null while the charge is only authorized.
  opens_at timestamptz,
  reply_by timestamptz,
  evidence jsonb NOT NULL DEFAULT '[]',
  -- What finalizing decided, and when it shows.
  decision text CHECK (decision IN ('won', 'lost')),
  decides_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX test_processor_disputes_opens ON test_processor_disputes (opens_at);
