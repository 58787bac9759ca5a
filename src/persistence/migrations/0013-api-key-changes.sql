-- Issue 9: instances keep the API keys they found in memory, so every change to a stored key is
-- announced on the `tillpoint_api_keys` channel (`<schema> <key id>`, or `<schema> *` when the table
-- is emptied: installs in other schemas of the database ignore it), in the
-- changing transaction, whoever makes it — our code, a migration, an operator's SQL. A key's last
-- use is not a change worth announcing (it is written at most once a minute per instance).

CREATE FUNCTION tillpoint_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'TRUNCATE' THEN PERFORM pg_notify('tillpoint_api_keys', TG_TABLE_SCHEMA || ' *'); ELSE PERFORM pg_notify('tillpoint_api_keys', TG_TABLE_SCHEMA || ' ' || OLD.id); END IF; RETURN NULL; END $$;
CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN (to_jsonb(OLD) - 'last_used_at' IS DISTINCT FROM to_jsonb(NEW) - 'last_used_at')
  EXECUTE FUNCTION tillpoint_api_key_changed();
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION tillpoint_api_key_changed();
CREATE TRIGGER api_keys_emptied AFTER TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION tillpoint_api_key_changed();
