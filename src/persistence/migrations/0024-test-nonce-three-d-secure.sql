-- The test processor's 3-D Secure emulation: a tokenized test card remembers which 3-D Secure
-- scenario its number stands for, and a verified nonce carries the authentication's result (or a
-- challenge still to answer) to the payment, as a Braintree nonce does.

ALTER TABLE test_card_nonces ADD COLUMN three_d_secure jsonb;
