-- The claim in a form Citus also runs. Citus refuses row locks in a query across shards, and the
-- claim reads every organization's due deliveries: on Citus it picks the earliest due
-- deliveries, then leases them with an UPDATE that checks again that each is still pending and
-- due. Two workers picking the same delivery at once: the second's UPDATE waits for the first's
-- row lock, sees the lease the first wrote (no longer due) and skips it, so a delivery is still
-- claimed by one worker; that worker gets fewer than it asked for. On PostgreSQL the claim keeps
-- FOR UPDATE SKIP LOCKED, which hands the second worker the next deliveries instead.
CREATE OR REPLACE FUNCTION claim_webhook_deliveries(due_at timestamptz, lease_until timestamptz, max_count integer, token text)
  RETURNS TABLE (organization_id text, endpoint_id text, event_id text)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  #variable_conflict use_column
  BEGIN
    IF current_organization_id() IS NOT NULL THEN
      RAISE EXCEPTION 'webhook deliveries are claimed outside any organization''s transaction' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
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
      RETURN;
    END IF;
    RETURN QUERY
      WITH due AS MATERIALIZED (
        SELECT c.organization_id, c.endpoint_id, c.event_id FROM webhook_deliveries c
         WHERE c.state = 'pending' AND c.next_attempt_at <= due_at
         ORDER BY c.next_attempt_at, c.event_id
         LIMIT max_count
      ), claimed AS (
        UPDATE webhook_deliveries d SET next_attempt_at = lease_until, claim_token = token
          FROM due
         WHERE d.organization_id = due.organization_id AND d.endpoint_id = due.endpoint_id AND d.event_id = due.event_id
           AND d.state = 'pending' AND d.next_attempt_at <= due_at
        RETURNING d.organization_id, d.endpoint_id, d.event_id
      )
      SELECT claimed.organization_id, claimed.endpoint_id, claimed.event_id FROM claimed;
  END
  $$;
