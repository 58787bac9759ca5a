-- Feature flags, experiments and their exposures (with the conversion marked on the exposure).

CREATE TABLE flags (
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  key text NOT NULL,
  value jsonb NOT NULL,
  description text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, mode, key)
);

CREATE TABLE experiments (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  key text NOT NULL,
  description text,
  status text NOT NULL CHECK (status IN ('draft', 'running', 'stopped')),
  variants jsonb NOT NULL,
  control text NOT NULL,
  planned_sample_size integer NOT NULL CHECK (planned_sample_size > 0),
  baseline_conversion_rate double precision,
  minimum_detectable_effect double precision,
  started_at timestamptz,
  stopped_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX experiments_account ON experiments (account_id, mode, created_at DESC, id DESC);
-- One running experiment per surface: two would fight over the same flag.
CREATE UNIQUE INDEX experiments_one_running_per_key ON experiments (account_id, mode, key) WHERE status = 'running';

CREATE TABLE experiment_exposures (
  experiment_id text NOT NULL REFERENCES experiments(id),
  checkout_session_id text NOT NULL REFERENCES checkout_sessions(id),
  variant text NOT NULL,
  exposed_at timestamptz NOT NULL,
  converted_at timestamptz,
  PRIMARY KEY (experiment_id, checkout_session_id)
);
CREATE INDEX experiment_exposures_session ON experiment_exposures (checkout_session_id);
