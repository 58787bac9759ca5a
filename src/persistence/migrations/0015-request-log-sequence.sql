-- Issue 9: the request log's trim without reading the table. Each scope (account, mode) numbers
-- its rows (`seq`, from `api_request_scopes.last_seq`, bumped once per batch), so a batch deletes
-- exactly the rows that fell out of the newest `keep` by an index range on (account, mode, seq),
-- starting where the last trim stopped (`trimmed_seq`): O(batch) rows, never the whole table, an
-- OFFSET walk over the kept rows, or the dead entries of earlier trims. The list pages by `seq`
-- too, so that index replaces the one on (account, mode, at, id). Existing rows are numbered
-- oldest first. During a rolling upgrade an older instance's batches fail (logged, never failing
-- a call) until it is replaced.

CREATE TABLE api_request_scopes (
  account_id text NOT NULL REFERENCES accounts(id),
  mode text NOT NULL,
  last_seq bigint NOT NULL,
  trimmed_seq bigint NOT NULL,
  PRIMARY KEY (account_id, mode)
);
ALTER TABLE api_requests ADD COLUMN seq bigint;
UPDATE api_requests r SET seq = n.seq
  FROM (SELECT id, row_number() OVER (PARTITION BY account_id, mode ORDER BY at, id) AS seq FROM api_requests) n
 WHERE r.id = n.id;
ALTER TABLE api_requests ALTER COLUMN seq SET NOT NULL;
INSERT INTO api_request_scopes (account_id, mode, last_seq, trimmed_seq)
  SELECT account_id, mode, max(seq), 0 FROM api_requests GROUP BY account_id, mode;
DROP INDEX IF EXISTS api_requests_scope;
CREATE INDEX api_requests_scope_seq ON api_requests (account_id, mode, seq);
