-- A payment link's shopper options, carried into every session it opens: the promotion code field,
-- billing and shipping address collection, shipping choices and custom fields. A line's
-- `adjustable_quantity` lives in `line_items`, as a session's does.

ALTER TABLE payment_links
  ADD COLUMN allow_promotion_codes boolean NOT NULL DEFAULT false,
  ADD COLUMN billing_address_collection text NOT NULL DEFAULT 'auto',
  ADD COLUMN shipping_allowed_countries jsonb,
  ADD COLUMN shipping_options jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '[]';
