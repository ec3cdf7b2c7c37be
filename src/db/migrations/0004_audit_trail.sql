-- The audit trail: append-only, one hash chain per organization.

CREATE TABLE audit_events (
  organization_id text NOT NULL REFERENCES organizations (id),
  seq bigint NOT NULL CHECK (seq > 0),
  occurred_at timestamptz NOT NULL,
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'user', 'system', 'anonymous')),
  actor_id text NOT NULL,
  actor_role text,
  action text NOT NULL CHECK (action ~ '^[a-z_]+(\.[a-z_]+)+$'),
  target_type text,
  target_id text,
  request_id text,
  source_ip text,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
  details jsonb NOT NULL DEFAULT '{}',
  prev_hash bytea NOT NULL CHECK (length(prev_hash) = 32),
  hash bytea NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (organization_id, seq)
);
CREATE INDEX audit_events_by_time ON audit_events (organization_id, occurred_at, seq);
CREATE INDEX audit_events_by_request ON audit_events (organization_id, request_id);

SELECT enable_tenant_isolation('audit_events');
GRANT SELECT, INSERT ON audit_events TO gatehouse_runtime;

-- Append-only for every role, the owner included: corrections are new events, never edits.
CREATE FUNCTION audit_events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_events_no_update_or_delete BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_are_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_are_append_only();

-- The head of each organization's chain. Writers lock this row, so two concurrent transactions
-- cannot both append after the same event and fork the chain.
CREATE TABLE audit_heads (
  organization_id text NOT NULL REFERENCES organizations (id),
  seq bigint NOT NULL,
  hash bytea NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (organization_id)
);
SELECT enable_tenant_isolation('audit_heads');
GRANT SELECT, INSERT, UPDATE ON audit_heads TO gatehouse_runtime;
