-- The hot path (issue 9): rate-limit counters are one-second windows that mean nothing after a
-- crash, so they skip the write-ahead log (an API call's counter upsert no longer waits for a WAL
-- flush); the webhook worker claims due deliveries per endpoint.

ALTER TABLE rate_limit_counters SET UNLOGGED;
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at)
  WHERE status IN ('pending', 'retrying');
