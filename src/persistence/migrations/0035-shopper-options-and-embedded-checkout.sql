-- What the shopper answers and where the page lives: a session's `custom_fields` (questions, then
-- answers) and the payment's copy of the answers; `ui_mode`, `return_url` and `client_secret` of an
-- embedded session; and each account's origins allowed to frame its embedded checkout
-- (`frame-ancestors`). A line's `adjustable_quantity` lives in `line_items`.

ALTER TABLE checkout_sessions
  ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN ui_mode text NOT NULL DEFAULT 'hosted',
  ADD COLUMN return_url text,
  ADD COLUMN client_secret text;
ALTER TABLE payments ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '[]';
ALTER TABLE accounts ADD COLUMN embed_allowed_origins jsonb NOT NULL DEFAULT '[]';
