-- What a session's total is made of (docs/pricing.md): `total_details` (discount, shipping, tax),
-- whether the page offers a promotion code field, the discounts applied, the shipping options and
-- the one chosen; and the breakdown a
-- payment was made with. Existing rows read as a total with nothing but items.

ALTER TABLE checkout_sessions
  ADD COLUMN total_details jsonb NOT NULL DEFAULT '{"amountDiscount": 0, "amountShipping": 0, "amountTax": 0}',
  ADD COLUMN allow_promotion_codes boolean NOT NULL DEFAULT false,
  ADD COLUMN discounts jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN shipping_options jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN shipping_rate_id text;
ALTER TABLE payments ADD COLUMN total_details jsonb;
