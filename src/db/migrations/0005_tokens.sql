-- JWTs for people: the service's signing key, and tokens revoked before their expiry.

-- Secrets of the service itself (the JWT signing key). The owner alone reads them: the runtime
-- role has no grant, so a request can never select them, whatever its SQL.
CREATE TABLE service_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON service_secrets FROM PUBLIC;

-- Logged-out tokens, by the SHA-256 of their jti, kept until the token would have expired.
CREATE TABLE revoked_tokens (
  organization_id text NOT NULL REFERENCES organizations (id),
  jti_hash bytea NOT NULL CHECK (length(jti_hash) = 32),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, jti_hash)
);
SELECT enable_tenant_isolation('revoked_tokens');
GRANT SELECT, INSERT, DELETE ON revoked_tokens TO gatehouse_runtime;
