-- Outbound webhooks: the endpoints an organization subscribes, one delivery per endpoint and
-- event, and every attempt to deliver it. Deliveries are made from the event outbox by a trigger,
-- in the transaction that records the event, so an event is never committed without them.

CREATE TABLE webhook_endpoints (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^we_[0-9a-z]{26}$'),
  url text NOT NULL CHECK (length(url) BETWEEN 10 AND 2048),
  description text CHECK (length(description) <= 500),
  events text[] NOT NULL CHECK (cardinality(events) BETWEEN 1 AND 50),
  enabled boolean NOT NULL DEFAULT true,
  -- Who disabled it: a person (manual), its receiver answering 410 (gone), or five days of failures (failing).
  disabled_reason text CHECK (disabled_reason IN ('manual', 'gone', 'failing')),
  disabled_at timestamptz,
  -- Since when every attempt has failed; NULL again after a success.
  failing_since timestamptz,
  -- Sealed with AES-256-GCM (src/webhooks/secret-box.ts): we sign with them, so a hash would not do.
  secret_ciphertext text NOT NULL,
  previous_secret_ciphertext text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK (enabled = (disabled_reason IS NULL))
);
SELECT enable_tenant_isolation('webhook_endpoints');
GRANT SELECT, INSERT, DELETE ON webhook_endpoints TO gatehouse_runtime;
GRANT UPDATE (url, description, events, enabled, disabled_reason, disabled_at, failing_since,
              secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at, updated_at)
  ON webhook_endpoints TO gatehouse_runtime;

-- One event to one endpoint. Its webhook-id is the event id, the same on every attempt and
-- every redelivery, so a receiver can de-duplicate.
CREATE TABLE webhook_deliveries (
  organization_id text NOT NULL,
  endpoint_id text NOT NULL,
  event_id text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- Attempts in the current round of the retry schedule; a manual redelivery starts a new round.
  round_attempts integer NOT NULL DEFAULT 0 CHECK (round_attempts >= 0),
  -- While pending: when the next attempt is due. While a worker holds it: the end of that
  -- worker's lease, so a delivery whose worker died mid-flight is due again once the lease ends.
  next_attempt_at timestamptz,
  claim_token text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, endpoint_id, event_id),
  FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, event_id) REFERENCES event_outbox (organization_id, id),
  CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
);
SELECT enable_tenant_isolation('webhook_deliveries');
GRANT SELECT, INSERT ON webhook_deliveries TO gatehouse_runtime;
GRANT UPDATE (state, attempts, round_attempts, next_attempt_at, claim_token, updated_at) ON webhook_deliveries TO gatehouse_runtime;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';

-- Every attempt, kept: what the receiver answered, how fast, and its answer's first KiB.
CREATE TABLE webhook_attempts (
  organization_id text NOT NULL,
  endpoint_id text NOT NULL,
  event_id text NOT NULL,
  number integer NOT NULL CHECK (number > 0),
  attempted_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('succeeded', 'http_error', 'timeout', 'network_error', 'refused')),
  status integer CHECK (status BETWEEN 100 AND 599),
  latency_ms integer NOT NULL CHECK (latency_ms >= 0),
  response_body text CHECK (length(response_body) <= 1024),
  error text CHECK (length(error) <= 500),
  PRIMARY KEY (organization_id, endpoint_id, event_id, number),
  FOREIGN KEY (organization_id, endpoint_id, event_id) REFERENCES webhook_deliveries (organization_id, endpoint_id, event_id) ON DELETE CASCADE
);
SELECT enable_tenant_isolation('webhook_attempts');
GRANT SELECT, INSERT ON webhook_attempts TO gatehouse_runtime;

-- The fan-out: each new event becomes a delivery for every enabled endpoint of its organization
-- that subscribes to its type. It runs as whoever records the event, under row-level security.
CREATE FUNCTION webhook_deliveries_for_event() RETURNS trigger
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
  BEGIN
    INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id, next_attempt_at)
    SELECT e.organization_id, e.id, NEW.id, NEW.created_at
      FROM webhook_endpoints e
     WHERE e.organization_id = NEW.organization_id AND e.enabled AND NEW.type = ANY (e.events);
    RETURN NULL;
  END
  $$;
CREATE TRIGGER event_outbox_fans_out_to_webhooks AFTER INSERT ON event_outbox
  FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_for_event();

-- The delivery worker serves every organization, but reads each one's data in that
-- organization's own tenant transaction. This function is its only reach across organizations:
-- with its owner's rights it leases due deliveries (FOR UPDATE SKIP LOCKED, so any number of
-- workers share the work) and returns their keys, nothing else. It refuses to run inside an
-- organization's transaction: only a transaction with no organization (the worker's) may claim.
CREATE FUNCTION claim_webhook_deliveries(due_at timestamptz, lease_until timestamptz, max_count integer, token text)
  RETURNS TABLE (organization_id text, endpoint_id text, event_id text)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  #variable_conflict use_column
  BEGIN
    IF current_organization_id() IS NOT NULL THEN
      RAISE EXCEPTION 'webhook deliveries are claimed outside any organization''s transaction' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY
      WITH due AS (
        SELECT c.organization_id, c.endpoint_id, c.event_id FROM webhook_deliveries c
         WHERE c.state = 'pending' AND c.next_attempt_at <= due_at
         ORDER BY c.next_attempt_at, c.event_id
         LIMIT max_count
         FOR UPDATE SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_deliveries d SET next_attempt_at = lease_until, claim_token = token
          FROM due
         WHERE d.organization_id = due.organization_id AND d.endpoint_id = due.endpoint_id AND d.event_id = due.event_id
        RETURNING d.organization_id, d.endpoint_id, d.event_id
      )
      SELECT claimed.organization_id, claimed.endpoint_id, claimed.event_id FROM claimed;
  END
  $$;
REVOKE ALL ON FUNCTION claim_webhook_deliveries(timestamptz, timestamptz, integer, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION claim_webhook_deliveries(timestamptz, timestamptz, integer, text) TO gatehouse_runtime;

-- The owner acts for no organization in two places: the claim above, and recording an event
-- for every organization (lists.updated, when a list version becomes active) with its fan-out.
-- A superuser owner (the embedded database) bypasses row-level security anyway; with FORCE ROW
-- LEVEL SECURITY a non-superuser owner needs these policies.
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_delivers ON webhook_deliveries FOR ALL TO %I USING (true) WITH CHECK (true)', current_user);
  EXECUTE format('CREATE POLICY owner_fans_out ON webhook_endpoints FOR SELECT TO %I USING (true)', current_user);
  EXECUTE format('CREATE POLICY owner_records_shared_events ON event_outbox FOR INSERT TO %I WITH CHECK (type = ''lists.updated'')', current_user);
END
$$;
