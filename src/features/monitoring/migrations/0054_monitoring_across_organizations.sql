-- Monitoring's two steps across organizations, so that neither costs a tenant transaction per
-- organization (issue 28). Every serving process polls every few seconds for runs to work: it
-- asks once which organizations have a claimable run, and claims in the tenant transaction of
-- those alone. A new list version queues a run in every organization with one INSERT.
--
-- Like claim_webhook_deliveries (0011, 0053): SECURITY DEFINER (the owner reads across
-- organizations), called by the runtime role in a transaction for no organization, refused
-- inside an organization's. The poll answers organization ids only; the runs themselves are
-- read, claimed and audited in their own organization's transaction, under row-level security.

-- The organizations with a run to claim as of `due_at`, the one waiting longest first: queued,
-- or running with a lease that ran out (claimableRun's predicate, src/features/monitoring/store.ts).
-- No row locks: on Citus the statement goes to every shard, which refuses them there.
CREATE FUNCTION monitoring_organizations_due(due_at timestamptz)
  RETURNS TABLE (organization_id text)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  #variable_conflict use_column
  BEGIN
    IF current_organization_id() IS NOT NULL THEN
      RAISE EXCEPTION 'monitoring polls outside any organization''s transaction' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY
      SELECT r.organization_id FROM monitoring_runs r
       WHERE r.status IN ('queued', 'running') AND (r.lease_until IS NULL OR r.lease_until < due_at)
       GROUP BY r.organization_id
       ORDER BY min(r.created_at), r.organization_id;
  END
  $$;
REVOKE ALL ON FUNCTION monitoring_organizations_due(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION monitoring_organizations_due(timestamptz) TO gatehouse_runtime;

-- Queues a run in each organization named, with the run id made for it (the service makes ids,
-- src/ids.ts), unless the organization has the run for that version already (another process
-- queued it); `run` holds the columns every organization's run shares, as the service queues one
-- (queuedRun, src/features/monitoring/store.ts). Answers how many it queued. RETURNING: on Citus
-- an INSERT … SELECT without it is sent by COPY, which row-level security refuses.
CREATE FUNCTION queue_monitoring_runs(organization_ids text[], run_ids text[], run jsonb)
  RETURNS integer
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  DECLARE
    queued integer;
  BEGIN
    IF current_organization_id() IS NOT NULL THEN
      RAISE EXCEPTION 'monitoring runs are queued across organizations outside any organization''s transaction' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF cardinality(organization_ids) IS DISTINCT FROM cardinality(run_ids) THEN
      RAISE EXCEPTION 'one run id for each organization' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    WITH inserted AS (
      INSERT INTO monitoring_runs (organization_id, id, list, list_version_id, previous_version_id, changed_entries, status, cursor, counts, created_at)
      SELECT o.organization_id, o.id, r.list, r.list_version_id, r.previous_version_id, r.changed_entries, r.status, r.cursor, r.counts, r.created_at
        FROM unnest(organization_ids, run_ids) AS o (organization_id, id)
       CROSS JOIN jsonb_populate_record(NULL::monitoring_runs, run) AS r
      ON CONFLICT (organization_id, list_version_id) DO NOTHING
      RETURNING 1
    )
    SELECT count(*) INTO queued FROM inserted;
    RETURN queued;
  END
  $$;
REVOKE ALL ON FUNCTION queue_monitoring_runs(text[], text[], jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION queue_monitoring_runs(text[], text[], jsonb) TO gatehouse_runtime;

-- The poll reads this index alone: the runs still to do, whatever their organization (the
-- monitoring_runs_to_do index serves the claim inside one organization).
CREATE INDEX monitoring_runs_due ON monitoring_runs (lease_until, organization_id, created_at) WHERE status IN ('queued', 'running');

-- A superuser owner (the embedded database) bypasses row-level security; under FORCE ROW LEVEL
-- SECURITY a non-superuser owner needs these policies for the two functions above.
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_polls ON monitoring_runs FOR SELECT TO %I USING (true)', current_user);
  EXECUTE format('CREATE POLICY owner_queues ON monitoring_runs FOR INSERT TO %I WITH CHECK (true)', current_user);
END
$$;
