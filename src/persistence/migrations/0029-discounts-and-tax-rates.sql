-- Tax rates, coupons, promotion codes and the ledger of which session took which discount. A redemption is
-- one row per session (its primary key): retrying a declined card on the same session never counts
-- twice; `max_redemptions` is checked against it under the coupon's and code's row locks.

CREATE TABLE coupons (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  name text,
  percent_off numeric(5, 2),
  amount_off bigint,
  currency text,
  duration text NOT NULL,
  max_redemptions integer,
  redeem_by timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  CHECK ((percent_off IS NULL) <> (amount_off IS NULL))
);
CREATE INDEX coupons_list ON coupons (account_id, mode, created_at DESC, id DESC);

CREATE TABLE promotion_codes (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  code text NOT NULL,
  coupon_id text NOT NULL REFERENCES coupons(id),
  active boolean NOT NULL,
  max_redemptions integer,
  expires_at timestamptz,
  restrictions jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX promotion_codes_list ON promotion_codes (account_id, mode, created_at DESC, id DESC);
-- Codes are typed by shoppers in any case: one active code per spelling, per account and mode.
CREATE UNIQUE INDEX promotion_codes_active_code ON promotion_codes (account_id, mode, lower(code)) WHERE active;

CREATE TABLE discount_redemptions (
  checkout_session_id text PRIMARY KEY,
  account_id text NOT NULL,
  mode text NOT NULL,
  coupon_id text NOT NULL REFERENCES coupons(id),
  promotion_code_id text REFERENCES promotion_codes(id),
  created_at timestamptz NOT NULL
);
CREATE INDEX discount_redemptions_coupon ON discount_redemptions (coupon_id);
CREATE INDEX discount_redemptions_promotion_code ON discount_redemptions (promotion_code_id);

CREATE TABLE tax_rates (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  display_name text NOT NULL,
  description text,
  percentage numeric(7, 4) NOT NULL,
  inclusive boolean NOT NULL,
  country text,
  state text,
  jurisdiction text,
  active boolean NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX tax_rates_list ON tax_rates (account_id, mode, created_at DESC, id DESC);
