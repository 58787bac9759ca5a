-- Issue 9: the tables every API call and payment writes name their account without a foreign key.
--
-- A foreign key makes each insert check its parent with `SELECT … FOR KEY SHARE`: every checkout
-- session, payment, event, audit line and request-log batch of an account locked that account's one
-- row. Concurrent writers of a busy account then meet on that row (a multixact for each overlap, a
-- WAL record and a dirty page for each lock): 13–16% of PostgreSQL's CPU per session creation in
-- alternated A/B runs, more as concurrency grows (docs/adr/0048-account-rows-without-foreign-keys.md).
--
-- The check guarded nothing reachable: accounts are never deleted, and an account id reaches these
-- rows only from an authenticated API key, a dashboard membership or a payment link, rows whose
-- own foreign keys stay, and passes from the session to its payments and events. The one way such rows could come to name no account, deleting it, is now refused by
-- the schema itself. Keys between entities (a payment's session, a refund's payment, a delivery's
-- event) stay, as does every key of the tables written rarely.

ALTER TABLE checkout_sessions DROP CONSTRAINT IF EXISTS checkout_sessions_account_id_fkey;
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_account_id_fkey;
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_account_id_fkey;
ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_account_id_fkey;
ALTER TABLE api_requests DROP CONSTRAINT IF EXISTS api_requests_account_id_fkey;
ALTER TABLE api_request_scopes DROP CONSTRAINT IF EXISTS api_request_scopes_account_id_fkey;
CREATE FUNCTION tillpoint_account_kept() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'accounts are never deleted: % is named by its sessions, payments, events and audit log', OLD.id USING ERRCODE = 'restrict_violation'; END $$;
CREATE TRIGGER accounts_kept BEFORE DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION tillpoint_account_kept();
