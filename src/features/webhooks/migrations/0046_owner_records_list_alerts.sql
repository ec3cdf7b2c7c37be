-- The freshness monitor announces lists.stale, lists.update_failed and lists.recovered to every
-- organization as the owner, as an activated version announces lists.updated (0011). Under FORCE
-- ROW LEVEL SECURITY an owner that is not a superuser could record only lists.updated, so those
-- alerts were refused, and subscribers never heard that a list went stale.
DO $$
BEGIN
  DROP POLICY owner_records_shared_events ON event_outbox;
  EXECUTE format('CREATE POLICY owner_records_shared_events ON event_outbox FOR INSERT TO %I '
                 'WITH CHECK (type IN (''lists.updated'', ''lists.stale'', ''lists.update_failed'', ''lists.recovered''))', current_user);
END
$$;
