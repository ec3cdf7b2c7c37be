-- Identity: organizations get a tier, a state and a session policy; API keys are stored only as
-- SHA-256 hashes.

ALTER TABLE organizations
  ADD COLUMN tier text NOT NULL DEFAULT 'defense' CHECK (tier IN ('defense', 'enterprise')),
  ADD COLUMN state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'suspended')),
  -- The longest a person's JWT may live for this organization.
  ADD COLUMN session_max_seconds integer NOT NULL DEFAULT 3600 CHECK (session_max_seconds BETWEEN 60 AND 86400),
  -- Requests a second per credential; NULL takes the tier's default.
  ADD COLUMN rate_limit_per_second integer CHECK (rate_limit_per_second BETWEEN 1 AND 100000);

CREATE TABLE api_keys (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^key_[0-9a-z]{26}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  -- An admin key may manage the organization's keys; a standard key may not.
  scope text NOT NULL CHECK (scope IN ('standard', 'admin')),
  display_prefix text NOT NULL,
  secret_hash bytea NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled', 'revoked')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  state_changed_at timestamptz,
  last_used_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
SELECT enable_tenant_isolation('api_keys');
-- The hash never changes and a revoked key never comes back: enforced below, not only in code.
GRANT SELECT, INSERT ON api_keys TO gatehouse_runtime;
GRANT UPDATE (state, state_changed_at, last_used_at, name) ON api_keys TO gatehouse_runtime;

CREATE FUNCTION api_keys_revocation_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state = 'revoked' AND NEW.state <> 'revoked' THEN
    RAISE EXCEPTION 'a revoked API key cannot be reactivated' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER api_keys_revocation_is_final BEFORE UPDATE OF state ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_keys_revocation_is_final();

-- Authentication happens before the organization is known. This function, running with its
-- owner's rights, answers for exactly one hash and returns only what authentication needs.
-- The owner reads through it; with FORCE ROW LEVEL SECURITY a non-superuser owner needs a policy
-- (a superuser, as on the embedded database, bypasses row level security anyway).
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_authenticates ON api_keys FOR SELECT TO %I USING (true)', current_user);
  EXECUTE format('CREATE POLICY owner_authenticates ON organizations FOR SELECT TO %I USING (true)', current_user);
END
$$;
CREATE FUNCTION authenticate_api_key(presented_hash bytea)
  RETURNS TABLE (organization_id text, key_id text, key_state text, scope text, environment text,
                 tier text, organization_state text, rate_limit_per_second integer, last_used_at timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT k.organization_id, k.id, k.state, k.scope, k.environment, o.tier, o.state, o.rate_limit_per_second, k.last_used_at
      FROM api_keys k JOIN organizations o ON o.id = k.organization_id
     WHERE k.secret_hash = presented_hash
  $$;
REVOKE ALL ON FUNCTION authenticate_api_key(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION authenticate_api_key(bytea) TO gatehouse_runtime;
