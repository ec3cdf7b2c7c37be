-- The event outbox: what happened, written in the transaction that made it happen, so no event
-- is lost and none is sent for work that rolled back. Delivery (webhooks) reads it later.
CREATE TABLE event_outbox (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^evt_[0-9a-z]{26}$'),
  -- The interface spec's event names: screening_completed, visitor_checked_in, …
  type text NOT NULL CHECK (type ~ '^[a-z][a-z_.]{2,63}$'),
  data jsonb NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
SELECT enable_tenant_isolation('event_outbox');
-- Events are facts: appended, never edited by the service.
GRANT SELECT, INSERT ON event_outbox TO gatehouse_runtime;
CREATE INDEX event_outbox_by_type ON event_outbox (organization_id, type, id);
