-- The customer portal (docs/billing.md): a short-lived page where a customer sees their
-- subscriptions and invoices, changes the card they are billed to and cancels. Opened by a secret
-- token of its own, never by the session's id.
CREATE TABLE billing_portal_sessions (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  customer_id text NOT NULL REFERENCES customers (id),
  return_url text,
  locale text,
  token text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > created_at)
);
CREATE INDEX billing_portal_sessions_scope_created ON billing_portal_sessions (account_id, mode, created_at DESC, id DESC);
