-- Operators create and change organizations as the owner (src/db/operator.ts: the CLI, the
-- sandbox's first start). organizations has FORCE ROW LEVEL SECURITY, so the owner is bound by
-- its policies; a superuser bypasses them, but a non-superuser owner, as production runs it, was
-- refused every write ("new row violates row-level security policy"). These policies let the
-- owner, and only the owner, write; the runtime role still may only read its own organization
-- (it has no INSERT or UPDATE grant, and these policies do not name it). As in 0003, the owner is
-- whoever runs the migrations.
DO $$
BEGIN
  EXECUTE format('CREATE POLICY operator_creates ON organizations FOR INSERT TO %I WITH CHECK (true)', current_user);
  EXECUTE format('CREATE POLICY operator_updates ON organizations FOR UPDATE TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
