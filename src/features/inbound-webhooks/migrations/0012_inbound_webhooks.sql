-- Inbound webhooks (POST /api/v1/webhooks/{kind}). The interface spec allows their payload's keys
-- to be kept and no personal data: so a receipt holds the key paths, the kind, the time, the
-- organization and the request id, and never a value from the payload.
CREATE TABLE inbound_webhook_receipts (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^iwh_[0-9a-z]{26}$'),
  kind text NOT NULL CHECK (kind IN ('screening_completed', 'visitor_checked_in', 'visitor_checked_out', 'session_escalated')),
  key_paths text[] NOT NULL CHECK (cardinality(key_paths) <= 200),
  -- Deeper or further keys were left out (src/webhooks/payload-keys.ts bounds both).
  key_paths_truncated boolean NOT NULL,
  -- Whether the request carried a verified Standard Webhooks signature.
  signed boolean NOT NULL,
  -- SHA-256 of the sender's webhook-id header: a replay is acknowledged once and recorded once.
  webhook_id_sha256 text CHECK (webhook_id_sha256 ~ '^[0-9a-f]{64}$'),
  request_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX inbound_webhook_receipts_once ON inbound_webhook_receipts (organization_id, webhook_id_sha256) WHERE webhook_id_sha256 IS NOT NULL;
SELECT enable_tenant_isolation('inbound_webhook_receipts');
GRANT SELECT, INSERT ON inbound_webhook_receipts TO gatehouse_runtime;

-- The organization's signing secret for inbound webhooks, when it set one: then every inbound
-- webhook must carry a valid signature. Sealed like the outbound endpoints' secrets.
CREATE TABLE inbound_webhook_secrets (
  organization_id text NOT NULL REFERENCES organizations (id),
  secret_ciphertext text NOT NULL,
  previous_secret_ciphertext text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  PRIMARY KEY (organization_id)
);
SELECT enable_tenant_isolation('inbound_webhook_secrets');
GRANT SELECT, INSERT, DELETE ON inbound_webhook_secrets TO gatehouse_runtime;
GRANT UPDATE (secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at, rotated_at) ON inbound_webhook_secrets TO gatehouse_runtime;
