-- Appends a transaction's audit events to its organization's chain, in order, and answers the
-- chain's new head hash. The service calls it once, in the transaction's last statement (see
-- src/audit/audit.ts), so the head's row lock is held from here to COMMIT only. Each hash covers
-- exactly the bytes chainHash (src/audit/audit-chain.ts) covers: the previous hash, then the
-- event's canonical JSON, which the service sends split around the sequence number that only the
-- locked head knows. As a function its statements are planned once per connection rather than on
-- every call, which the one-query COMMIT (a simple query, no prepared statements) would cost.
CREATE FUNCTION append_audit_events(events jsonb) RETURNS bytea
  LANGUAGE plpgsql
  AS $$
  DECLARE
    organization text := current_organization_id();
    head_seq bigint;
    head_hash bytea;
    next_hash bytea;
    event jsonb;
  BEGIN
    -- The organization's first event starts its chain; two first writers meet at the conflict.
    INSERT INTO audit_heads (organization_id, seq, hash) VALUES (organization, 0, decode(repeat('00', 32), 'hex'))
      ON CONFLICT (organization_id) DO NOTHING;
    SELECT h.seq, h.hash INTO head_seq, head_hash FROM audit_heads h WHERE h.organization_id = organization FOR UPDATE;
    FOR event IN SELECT value FROM jsonb_array_elements(events) LOOP
      head_seq := head_seq + 1;
      next_hash := sha256(head_hash || convert_to((event ->> 'before') || head_seq::text || (event ->> 'after'), 'UTF8'));
      INSERT INTO audit_events (organization_id, seq, occurred_at, actor_type, actor_id, actor_role, action, target_type, target_id,
                                request_id, source_ip, outcome, details, prev_hash, hash)
      VALUES (organization, head_seq, (event ->> 'occurred_at')::timestamptz, event ->> 'actor_type', event ->> 'actor_id',
              event ->> 'actor_role', event ->> 'action', event ->> 'target_type', event ->> 'target_id', event ->> 'request_id',
              event ->> 'source_ip', event ->> 'outcome', event -> 'details', head_hash, next_hash);
      head_hash := next_hash;
    END LOOP;
    UPDATE audit_heads h SET seq = head_seq, hash = head_hash WHERE h.organization_id = organization;
    RETURN head_hash;
  END
  $$;
REVOKE ALL ON FUNCTION append_audit_events(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION append_audit_events(jsonb) TO gatehouse_runtime;
