-- Idempotency-Key: the first response to a keyed write is kept, and a retry with the same key and
-- the same request gets it back instead of acting twice (Stripe's model).
CREATE TABLE idempotency_keys (
  organization_id text NOT NULL REFERENCES organizations (id),
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  -- SHA-256 of method, route and body: the same key with another request is refused.
  request_fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  response_status integer,
  -- The headers a replay needs (content type, location), and the body as sent.
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (organization_id, expires_at);

SELECT enable_tenant_isolation('idempotency_keys');
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys TO gatehouse_runtime;
