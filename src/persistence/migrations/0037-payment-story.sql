-- A payment's page tells its whole story: the webhook deliveries each of its events caused, found
-- by event on every endpoint through this index; and the request-log lines that touched it, found
-- by their path or by `objects`, the ids a call's answer named (` re_… pay_… `, space-separated).

CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
ALTER TABLE api_requests ADD COLUMN objects text;
