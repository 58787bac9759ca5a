-- The dashboard: users, memberships, browser sessions, invites, sign-in failures, the audit log, the
-- API request log, and the indexes the filtered payments list needs on large accounts.

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE memberships (
  account_id text NOT NULL REFERENCES accounts(id),
  user_id text NOT NULL REFERENCES users(id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

-- The cookie's token is never stored, only its SHA-256.
CREATE TABLE dashboard_sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES users(id),
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ip text
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);

CREATE TABLE invites (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by text,
  revoked_at timestamptz
);
CREATE INDEX invites_account ON invites (account_id, created_at DESC);

-- subject is 'email:<address>' or 'ip:<address>'; rows older than the throttle window are pruned.
CREATE TABLE sign_in_failures (
  subject text NOT NULL,
  failed_at timestamptz NOT NULL
);
CREATE INDEX sign_in_failures_subject ON sign_in_failures (subject, failed_at);

CREATE TABLE audit_log (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text CHECK (mode IN ('test', 'live')),
  actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_key')),
  actor_id text NOT NULL,
  actor_label text NOT NULL,
  ip text,
  action text NOT NULL,
  target text,
  at timestamptz NOT NULL
);
CREATE INDEX audit_log_account ON audit_log (account_id, at DESC, id DESC);

-- Method, path, status and error code of merchant API calls: never a body, never a query.
CREATE TABLE api_requests (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  key_id text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  error_code text,
  request_id text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX api_requests_scope ON api_requests (account_id, mode, at DESC, id DESC);

-- The dashboard's payment list walks one of these newest first and stops after a page.
CREATE INDEX payments_scope_created ON payments (account_id, mode, created_at DESC, id DESC);
CREATE INDEX payments_scope_status ON payments (account_id, mode, status, created_at DESC, id DESC);
CREATE INDEX payments_scope_email ON payments (account_id, mode, lower(customer_email), created_at DESC);
CREATE INDEX payments_scope_last4 ON payments (account_id, mode, (payment_method->>'last4'), created_at DESC);
CREATE INDEX payments_session ON payments (checkout_session_id);
CREATE INDEX checkout_sessions_scope_created ON checkout_sessions (account_id, mode, created_at DESC, id DESC);
