-- People who sign in to the adjudication console (/console). An operator creates them with
-- `gatehouse users create`, which hands out a one-time password-setup link; the password is kept
-- as a scrypt hash only, and repeated failures lock the account for a while.
CREATE TABLE console_users (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^usr_[0-9a-z]{26}$'),
  -- Lower-cased; it is also the subject of the person's tokens and the actor in the audit trail.
  email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254 AND email ~ '^[^@\s]+@[^@\s]+$'),
  role text NOT NULL CHECK (role IN ('admin', 'adjudicator', 'viewer')),
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled')),
  -- `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (src/auth/passwords.ts); NULL until set through the link.
  password_hash text CHECK (password_hash ~ '^scrypt\$'),
  password_set_at timestamptz,
  -- SHA-256 (hex) of the one-time setup token; cleared once used.
  setup_token_sha256 text CHECK (setup_token_sha256 ~ '^[0-9a-f]{64}$'),
  setup_expires_at timestamptz,
  -- Consecutive failed sign-ins; reaching the limit sets locked_until and starts again from 0.
  failed_sign_ins integer NOT NULL DEFAULT 0 CHECK (failed_sign_ins >= 0),
  locked_until timestamptz,
  last_sign_in_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK ((setup_token_sha256 IS NULL) = (setup_expires_at IS NULL))
);
-- One address signs in to one organization, so the sign-in form needs no organization field.
CREATE UNIQUE INDEX console_users_email ON console_users (email);
CREATE UNIQUE INDEX console_users_setup_token ON console_users (setup_token_sha256) WHERE setup_token_sha256 IS NOT NULL;
SELECT enable_tenant_isolation('console_users');
-- People are disabled, never deleted: the audit trail keeps referring to them.
GRANT SELECT, INSERT ON console_users TO gatehouse_runtime;
GRANT UPDATE (role, state, password_hash, password_set_at, setup_token_sha256, setup_expires_at, failed_sign_ins,
              locked_until, last_sign_in_at, updated_at) ON console_users TO gatehouse_runtime;

-- Signing in and setting a password happen before the organization is known. These functions,
-- running with their owner's rights, answer for exactly one address or one setup token, and only
-- with where to look next: the rest is read inside that organization's own transaction. As for
-- api_keys (0003), a non-superuser owner needs a policy to read through them.
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_authenticates ON console_users FOR SELECT TO %I USING (true)', current_user);
END
$$;
CREATE FUNCTION console_user_by_email(presented_email text)
  RETURNS TABLE (organization_id text, user_id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT organization_id, id FROM console_users WHERE email = lower(presented_email) $$;
CREATE FUNCTION console_user_by_setup_token(presented_sha256 text)
  RETURNS TABLE (organization_id text, user_id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT organization_id, id FROM console_users WHERE setup_token_sha256 = presented_sha256 $$;
REVOKE ALL ON FUNCTION console_user_by_email(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION console_user_by_setup_token(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION console_user_by_email(text) TO gatehouse_runtime;
GRANT EXECUTE ON FUNCTION console_user_by_setup_token(text) TO gatehouse_runtime;
