-- Processor per account and mode (design.md §3, ProcessorConfig); the Braintree private key is stored encrypted.

CREATE TABLE processor_configs (
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  processor text NOT NULL CHECK (processor IN ('test', 'braintree')),
  -- Everything but the private key: environment, merchant id, public key, merchant accounts…
  settings jsonb NOT NULL,
  -- AES-256-GCM under TILLPOINT_SECRET_KEY, bound to the account and mode.
  private_key_sealed text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, mode),
  CHECK (processor = 'test' OR private_key_sealed IS NOT NULL)
);
