-- Payments made from the server with a saved payment method (`POST /v1/payments`) belong to no
-- checkout session, so a payment's session becomes optional. Checkout sessions get a `purpose`
-- (the API's `mode`: `payment`, or `setup` to save a card without charging) and, for a setup
-- session, the payment method it saved.

ALTER TABLE payments ALTER COLUMN checkout_session_id DROP NOT NULL;

ALTER TABLE checkout_sessions
  ADD COLUMN purpose text NOT NULL DEFAULT 'payment' CHECK (purpose IN ('payment', 'setup')),
  ADD COLUMN setup_payment_method_id text;
