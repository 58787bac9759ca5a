-- Checkout in subscription mode (docs/billing.md): the session reserves the id of the subscription
-- paying it starts, and keeps the subscription's options (trial, metadata).
ALTER TABLE checkout_sessions DROP CONSTRAINT IF EXISTS checkout_sessions_purpose_check;
ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_purpose_check CHECK (purpose IN ('payment', 'setup', 'subscription'));
ALTER TABLE checkout_sessions ADD COLUMN subscription_id text;
ALTER TABLE checkout_sessions ADD COLUMN subscription_data jsonb;
-- A session starts at most one subscription, whoever starts it (its request, or the billing job after a crash).
CREATE UNIQUE INDEX subscriptions_one_per_checkout ON subscriptions (checkout_session_id) WHERE checkout_session_id IS NOT NULL;
-- What the billing job looks at for a subscription a paid checkout did not get to start.
CREATE INDEX checkout_sessions_subscription_complete ON checkout_sessions (completed_at) WHERE purpose = 'subscription' AND status = 'complete';
-- What a subscription becomes after its invoice's last charge fails: canceled (the default), or kept
-- `unpaid`, renewing no more until that invoice is paid (`POST /v1/invoices/:id/pay`).
ALTER TABLE accounts ADD COLUMN subscription_failure_action text NOT NULL DEFAULT 'cancel'
  CHECK (subscription_failure_action IN ('cancel', 'unpaid'));
