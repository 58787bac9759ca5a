-- Prices that renew: every `recurring_interval_count` days, weeks, months or years (at most a year).
ALTER TABLE prices ADD COLUMN recurring_interval text CHECK (recurring_interval IN ('day', 'week', 'month', 'year'));
ALTER TABLE prices ADD COLUMN recurring_interval_count integer;
ALTER TABLE prices ADD COLUMN nickname text;
ALTER TABLE prices ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}';
ALTER TABLE prices ADD CONSTRAINT prices_recurring_whole CHECK (
  (recurring_interval IS NULL AND recurring_interval_count IS NULL)
  OR (recurring_interval_count >= 1 AND recurring_interval_count <= CASE recurring_interval WHEN 'day' THEN 365 WHEN 'week' THEN 52 WHEN 'month' THEN 12 ELSE 1 END)
);
