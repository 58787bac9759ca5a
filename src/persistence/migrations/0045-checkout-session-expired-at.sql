-- `expired_at`: when a checkout session expired, by its time running out or by the merchant.
ALTER TABLE checkout_sessions ADD COLUMN expired_at timestamptz;
