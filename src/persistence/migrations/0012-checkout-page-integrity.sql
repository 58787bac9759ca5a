-- Payment-page integrity (PCI DSS 4.0 6.4.3 / 11.6.1): each account's approved checkout page,
-- the changes detected against it, the CSP violation reports its shoppers' browsers sent (kept 90
-- days) and the merchant's notes on the page's scripts.

CREATE TABLE checkout_page_baselines (
  account_id text PRIMARY KEY REFERENCES accounts(id),
  digest text NOT NULL,
  fingerprint jsonb NOT NULL,
  approved_by_id text,
  approved_by_label text,
  approved_at timestamptz NOT NULL
);
CREATE TABLE checkout_page_changes (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  baseline_digest text NOT NULL,
  digest text NOT NULL,
  differences jsonb NOT NULL,
  detected_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolution text CHECK (resolution IN ('approved', 'reverted', 'superseded'))
);
CREATE INDEX checkout_page_changes_account ON checkout_page_changes (account_id, detected_at DESC, id DESC);
CREATE UNIQUE INDEX checkout_page_changes_one_open ON checkout_page_changes (account_id) WHERE resolved_at IS NULL;
CREATE TABLE csp_reports (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  checkout_session_id text,
  format text NOT NULL,
  directive text NOT NULL,
  blocked_url text NOT NULL,
  document_url text NOT NULL,
  disposition text NOT NULL,
  sample text,
  source_file text,
  line_number integer,
  user_agent text,
  received_at timestamptz NOT NULL
);
CREATE INDEX csp_reports_account ON csp_reports (account_id, received_at DESC, id DESC);
CREATE INDEX csp_reports_received ON csp_reports (received_at);
CREATE TABLE checkout_page_script_notes (
  account_id text NOT NULL REFERENCES accounts(id),
  script_id text NOT NULL,
  note text NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, script_id)
);
