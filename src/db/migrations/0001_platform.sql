-- The platform: the runtime role, the organization setting that row-level security reads, and
-- the organizations every tenant row belongs to.

-- Every request runs as this role: not a superuser, not the owner of any table, no BYPASSRLS,
-- unable to log in. Roles are shared by all databases of a PostgreSQL cluster, so it may exist.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'gatehouse_runtime') THEN
    CREATE ROLE gatehouse_runtime NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
  -- The owner must be able to switch to it (a superuser always can).
  IF NOT pg_has_role(current_user, 'gatehouse_runtime', 'MEMBER') THEN
    EXECUTE format('GRANT gatehouse_runtime TO %I', current_user);
  END IF;
END
$$;

-- Nobody but the owner creates objects; the runtime role only uses what it is granted.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO gatehouse_runtime;

-- The organization of the current tenant transaction, or NULL outside one. After a transaction
-- that set it, current_setting() returns '' rather than NULL, hence the nullif.
CREATE FUNCTION current_organization_id() RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.organization_id', true), '') $$;

-- Walls a tenant table off by organization: ENABLE and FORCE row level security (FORCE so the
-- owner is bound too), and one policy for every command on the current organization. Every
-- tenant table calls this; test/db/row-level-security.test.ts checks that none was missed.
CREATE FUNCTION enable_tenant_isolation(target regclass) RETURNS void
  LANGUAGE plpgsql
  AS $$
  BEGIN
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', target);
    EXECUTE format('CREATE POLICY tenant_isolation ON %s '
                   'USING (organization_id = current_organization_id()) '
                   'WITH CHECK (organization_id = current_organization_id())', target);
  END
  $$;
REVOKE ALL ON FUNCTION enable_tenant_isolation(regclass) FROM PUBLIC;

CREATE TABLE organizations (
  id text PRIMARY KEY CHECK (id ~ '^org_[0-9a-z]{26}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE organizations ENABLE ROW LEVEL SECURITY;
ALTER TABLE organizations FORCE ROW LEVEL SECURITY;
-- A tenant sees its own organization and nothing else. Organizations are created and changed by
-- operators (the CLI, as the owner), so the runtime role may only read.
CREATE POLICY organizations_own_row ON organizations
  FOR SELECT USING (id = current_organization_id());
GRANT SELECT ON organizations TO gatehouse_runtime;
