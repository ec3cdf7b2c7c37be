-- The owner must be able to SET ROLE gatehouse_runtime (src/db/tenant.ts). 0001 grants the role
-- unless pg_has_role(…, 'MEMBER') already holds. Since PostgreSQL 16 a non-superuser owner that
-- creates gatehouse_runtime holds it with ADMIN OPTION only, which counts as MEMBER but allows no
-- SET ROLE ("permission denied to set role"): so it grants itself the right to switch too.
-- A superuser may always switch; PostgreSQL 15 and earlier know no such option.
DO $$
BEGIN
  IF current_setting('server_version_num')::integer >= 160000 THEN
    IF NOT pg_has_role(current_user, 'gatehouse_runtime', 'SET') THEN
      EXECUTE format('GRANT gatehouse_runtime TO %I WITH SET TRUE, INHERIT FALSE', current_user);
    END IF;
  END IF;
END
$$;
