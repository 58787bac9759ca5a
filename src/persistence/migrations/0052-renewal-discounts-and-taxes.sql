-- Discounts and taxes on a subscription's invoices (docs/billing.md). A coupon lasts `once` (one
-- checkout, or a subscription's first invoice), `repeating` for 1 to 36 months, or `forever`.
ALTER TABLE coupons ADD COLUMN duration_in_months integer;
ALTER TABLE coupons ADD CONSTRAINT coupons_duration_check CHECK (
  (duration IN ('once', 'forever') AND duration_in_months IS NULL)
  OR (duration = 'repeating' AND duration_in_months BETWEEN 1 AND 36)
);

-- A subscription keeps its discount (the coupon's terms as applied, with its start and end) and
-- the ids of the tax rates each of its invoices adds.
ALTER TABLE subscriptions ADD COLUMN discount jsonb;
ALTER TABLE subscriptions ADD COLUMN default_tax_rates jsonb NOT NULL DEFAULT '[]';

-- An invoice's discount and taxes, each in minor units: total = subtotal - discounts + exclusive taxes.
ALTER TABLE invoices ADD COLUMN total_discount_amounts jsonb NOT NULL DEFAULT '[]';
ALTER TABLE invoices ADD COLUMN tax integer NOT NULL DEFAULT 0;
ALTER TABLE invoices ADD COLUMN total_tax_amounts jsonb NOT NULL DEFAULT '[]';

-- A discount is redeemed by a checkout session (one redemption per session, as before) or by a
-- subscription it was applied to through the API (once per subscription, coupon and code).
ALTER TABLE discount_redemptions DROP CONSTRAINT discount_redemptions_pkey;
ALTER TABLE discount_redemptions ALTER COLUMN checkout_session_id DROP NOT NULL;
ALTER TABLE discount_redemptions ADD COLUMN subscription_id text;
ALTER TABLE discount_redemptions ADD CONSTRAINT discount_redemptions_redeemer_check CHECK ((checkout_session_id IS NULL) <> (subscription_id IS NULL));
CREATE UNIQUE INDEX discount_redemptions_one_per_session ON discount_redemptions (checkout_session_id) WHERE checkout_session_id IS NOT NULL;
CREATE UNIQUE INDEX discount_redemptions_one_per_subscription ON discount_redemptions (subscription_id, coupon_id, coalesce(promotion_code_id, '')) WHERE subscription_id IS NOT NULL;
