-- Issue 26: claiming an instance and account security. One-time setup links (the first owner of the
-- demo account), password reset links, TOTP second factors with their recovery codes, an account's
-- requirement of a second factor for its whole team, and what a signed-in browser was (its user
-- agent) so a person can tell their sessions apart. Every token is stored as its SHA-256 only.

CREATE TABLE setup_links (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  used_by text,
  revoked_at timestamptz
);
CREATE INDEX setup_links_account ON setup_links (account_id);

CREATE TABLE password_resets (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  token_hash text NOT NULL UNIQUE,
  created_by text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id);

-- secret: the TOTP shared secret (base32) once confirmed; pending_secret: one offered, not yet confirmed.
-- last_step: the 30-second step of the last accepted code, so a code is never accepted twice.
CREATE TABLE second_factors (
  user_id text PRIMARY KEY REFERENCES users(id),
  secret text,
  pending_secret text,
  enabled_at timestamptz,
  last_step bigint
);

CREATE TABLE recovery_codes (
  user_id text NOT NULL REFERENCES users(id),
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE account_security (
  account_id text PRIMARY KEY REFERENCES accounts(id),
  require_second_factor boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL
);

ALTER TABLE dashboard_sessions ADD COLUMN user_agent text;
