-- Prices that renew (`recurring`), with a nickname and metadata, as Stripe's. A one-time price has
-- neither interval nor count; a recurring one has both, at most a year in all.
ALTER TABLE prices ADD COLUMN recurring_interval text CHECK (recurring_interval IN ('day', 'week', 'month', 'year'));
ALTER TABLE prices ADD COLUMN recurring_interval_count integer;
ALTER TABLE prices ADD CONSTRAINT prices_recurring_check CHECK (
  (recurring_interval IS NULL AND recurring_interval_count IS NULL)
  OR (
    recurring_interval IS NOT NULL AND recurring_interval_count IS NOT NULL AND recurring_interval_count >= 1 AND recurring_interval_count <= CASE recurring_interval
      WHEN 'day' THEN 365 WHEN 'week' THEN 52 WHEN 'month' THEN 12 ELSE 1 END
  )
);
ALTER TABLE prices ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}';
ALTER TABLE prices ADD COLUMN nickname text;
-- `GET /v1/prices` pages the scope's prices newest first (`prices_product` finds one product's).
CREATE INDEX prices_account ON prices (account_id, mode, created_at DESC);
