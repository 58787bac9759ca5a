-- `require_cvc_recollection`: a saved card paid on this session's page asks for its CVC again
-- (Stripe's `payment_method_options.card.require_cvc_recollection`). The CVC itself is never kept.

ALTER TABLE checkout_sessions ADD COLUMN require_cvc_recollection boolean NOT NULL DEFAULT false;
