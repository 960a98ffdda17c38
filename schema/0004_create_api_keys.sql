-- 0004_create_api_keys: API keys of the HTTP APIs. Only a SHA-256 of each key is stored: the key itself is
-- shown once by `tongate keys create` and cannot be recovered from the database.

CREATE TABLE api_keys (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  key_hash bytea NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  rps integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  CHECK (rps IS NULL OR rps > 0),
  CHECK (octet_length(key_hash) = 32)
);
COMMENT ON TABLE api_keys IS 'API keys accepted in the X-API-Key header or the api_key query parameter. Lookups go by key_hash; nothing here reveals a key.';
COMMENT ON COLUMN api_keys.id IS 'Key number, shown by tongate keys list and used by tongate keys revoke.';
COMMENT ON COLUMN api_keys.name IS 'Operator''s label for the key (who or what uses it).';
COMMENT ON COLUMN api_keys.key_hash IS 'SHA-256 of the whole key string (32 bytes).';
COMMENT ON COLUMN api_keys.key_prefix IS 'First characters of the key, so an operator can recognise it in a list; too short to guess the rest.';
COMMENT ON COLUMN api_keys.rps IS 'Requests per second allowed to this key across all API instances; NULL means the deployment''s default for keys.';
COMMENT ON COLUMN api_keys.created_at IS 'When the key was created.';
COMMENT ON COLUMN api_keys.revoked_at IS 'When the key was revoked; a revoked key is refused with 401 like an unknown one.';
