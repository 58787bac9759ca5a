-- Addresses on checkout sessions (ADR 0068): whether the page asks for a billing address
-- (`billing_address_collection`), the countries it ships to (`shipping_address_collection`), and
-- the shopper's `shipping_details` and billing address, copied onto the payment made with them.

ALTER TABLE checkout_sessions
  ADD COLUMN billing_address_collection text NOT NULL DEFAULT 'auto',
  ADD COLUMN shipping_address_collection jsonb,
  ADD COLUMN shipping_details jsonb,
  ADD COLUMN billing_address jsonb;
ALTER TABLE payments
  ADD COLUMN shipping_details jsonb,
  ADD COLUMN billing_address jsonb;
