-- Named, restricted and rolled API keys (docs/api.md#api-keys, docs/adr/0070): a key has a name, may
-- expire (a rolled key keeps working until then), and a restricted key (`rk_…`) carries its grants
-- per resource. Changing any of these is announced like any change but the last use (migration 0013).

ALTER TABLE api_keys ADD COLUMN name text NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
ALTER TABLE api_keys ADD COLUMN permissions jsonb;
ALTER TABLE api_keys DROP CONSTRAINT api_keys_kind_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_kind_check CHECK (kind IN ('secret', 'publishable', 'restricted'));
ALTER TABLE api_keys ADD CONSTRAINT api_keys_restricted_permissions CHECK ((kind = 'restricted') = (permissions IS NOT NULL));
