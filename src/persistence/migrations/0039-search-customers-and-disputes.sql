-- The search box finds customers (id prefix, the start or the end of their email) and disputes (id
-- prefix, their payment's id prefix, amount), each term by its own index, as migration 0025 does for
-- the other kinds (docs/dashboard.md, "Search").

CREATE INDEX customers_id_pattern ON customers (account_id, mode, id text_pattern_ops);
CREATE INDEX customers_email_pattern ON customers (account_id, mode, lower(email) text_pattern_ops);
CREATE INDEX customers_email_reverse ON customers (account_id, mode, reverse(lower(email)) text_pattern_ops);

CREATE INDEX disputes_id_pattern ON disputes (account_id, mode, id text_pattern_ops);
CREATE INDEX disputes_payment_pattern ON disputes (account_id, mode, payment_id text_pattern_ops);
CREATE INDEX disputes_scope_amount ON disputes (account_id, mode, amount);
