-- Two of the payments' indexes serve no query another does not serve as well, and every payment is
-- written into each of them twice (its intent, and its outcome, whose update cannot be HOT):
-- - `payments_scope_email` (account, mode, lower(email), created_at): an email is looked up by
--   equality, which `payments_email_pattern` (account, mode, lower(email) text_pattern_ops) answers
--   too; the few payments of one email are then sorted by time.
-- - `payments_session` (checkout_session_id): every lookup of a session's payments names the
--   session's account and mode, which `payments_session_pattern` (account, mode,
--   checkout_session_id text_pattern_ops) answers, or asks for its payment under way, which the
--   unique `payments_one_holding_per_session` answers.
-- Dropping both took 3–8% off paying's PostgreSQL CPU (docs/performance.md).

DROP INDEX IF EXISTS payments_scope_email;
DROP INDEX IF EXISTS payments_session;
