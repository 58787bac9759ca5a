-- The search box and `GET /v1/payments/search` (docs/dashboard.md, "Search"; ADR 0059): one index
-- per kind of term, within the scope where the term is common. Ids by prefix (byte-order pattern
-- indexes), emails by their start and by their end (the address and its reverse, lower case),
-- amounts, `client_reference_id`, and any metadata value (GIN over the session's metadata).

CREATE INDEX payments_id_pattern ON payments (account_id, mode, id text_pattern_ops);
CREATE INDEX payments_session_pattern ON payments (account_id, mode, checkout_session_id text_pattern_ops);
CREATE INDEX payments_email_pattern ON payments (account_id, mode, lower(customer_email) text_pattern_ops);
CREATE INDEX payments_email_reverse ON payments (account_id, mode, reverse(lower(customer_email)) text_pattern_ops);
CREATE INDEX payments_scope_amount ON payments (account_id, mode, amount);

CREATE INDEX checkout_sessions_id_pattern ON checkout_sessions (account_id, mode, id text_pattern_ops);
CREATE INDEX checkout_sessions_email_pattern ON checkout_sessions (account_id, mode, lower(customer_email) text_pattern_ops);
CREATE INDEX checkout_sessions_email_reverse ON checkout_sessions (account_id, mode, reverse(lower(customer_email)) text_pattern_ops);
CREATE INDEX checkout_sessions_scope_amount ON checkout_sessions (account_id, mode, amount_total);
CREATE INDEX checkout_sessions_scope_reference ON checkout_sessions (account_id, mode, client_reference_id)
  WHERE client_reference_id IS NOT NULL;
CREATE INDEX checkout_sessions_metadata ON checkout_sessions USING gin (metadata);

CREATE INDEX refunds_id_pattern ON refunds (account_id, mode, id text_pattern_ops);
CREATE INDEX refunds_payment_pattern ON refunds (account_id, mode, payment_id text_pattern_ops);
CREATE INDEX refunds_scope_amount ON refunds (account_id, mode, amount);

CREATE INDEX payment_links_id_pattern ON payment_links (account_id, mode, id text_pattern_ops);
