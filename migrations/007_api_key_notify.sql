-- contract §14.4, §14.5: every API process keeps the set of existing key hashes in memory (store/key-index.ts)
-- so that an unknown key is refused without a query. A key created by any process (the CLI) reaches
-- every listener at its commit: NOTIFY is transactional and delivered only once the insert commits.
-- Keys are never deleted (revocation keeps the row), so creation is the only change the set needs.
CREATE FUNCTION api_key_created_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_created', NEW.key_hash);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_key_created_notify
  AFTER INSERT OR UPDATE OF key_hash ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_key_created_notify();
