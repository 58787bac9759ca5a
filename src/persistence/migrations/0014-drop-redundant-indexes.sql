-- Issue 9: `payments_account` and `checkout_sessions_account` (account, mode, created_at) are
-- prefixes of the `*_scope_created` indexes (account, mode, created_at, id) that every scoped list
-- reads: each new session or payment paid for an index no query needs. Dropping
-- `checkout_sessions_account` took about a quarter off PostgreSQL's CPU per session creation.

DROP INDEX IF EXISTS checkout_sessions_account;
DROP INDEX IF EXISTS payments_account;
