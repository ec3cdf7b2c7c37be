-- The settings stamp is read by each tenant transaction's first statement (src/db/tenant.ts), not
-- with the API key: a request of several transactions (a workforce sync's batches) sees each
-- change when it happens, and people and system jobs share the cache too. authenticate_api_key
-- goes back to what it answered before 0035, still in PL/pgSQL.
DROP FUNCTION authenticate_api_key(bytea);
CREATE FUNCTION authenticate_api_key(presented_hash bytea)
  RETURNS TABLE (organization_id text, key_id text, key_state text, scope text, environment text,
                 tier text, organization_state text, rate_limit_per_second integer, last_used_at timestamptz)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  BEGIN
    RETURN QUERY
    SELECT k.organization_id, k.id, k.state, k.scope, k.environment, o.tier, o.state, o.rate_limit_per_second, k.last_used_at
      FROM api_keys k JOIN organizations o ON o.id = k.organization_id
     WHERE k.secret_hash = presented_hash;
  END
  $$;
REVOKE ALL ON FUNCTION authenticate_api_key(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION authenticate_api_key(bytea) TO gatehouse_runtime;

-- Only the trigger moves a stamp: the runtime role could otherwise set one back to a value a
-- process still keeps something under, and bring that back into use.
REVOKE INSERT, UPDATE ON settings_stamps FROM gatehouse_runtime;
ALTER FUNCTION bump_settings_stamp() SECURITY DEFINER SET search_path = public, pg_temp;
