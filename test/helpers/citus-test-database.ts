/**
 * Test databases on a Citus cluster. When DATABASE_URL names a database with the citus extension
 * and its worker nodes (BENCHMARKS.md, "Citus"), each test database is made alike: created on
 * the coordinator and every worker, the extension on each, the same nodes registered, so
 * `migrate` distributes its tables as it would in production. On PostgreSQL without Citus
 * nothing here runs.
 */
import pg from 'pg';

type Node = { host: string; port: number };
export type CitusCluster = { coordinator: Node; workers: Node[] };

/** The cluster the superuser's database belongs to, or undefined without Citus. */
export async function citusClusterOf(superuserUrl: string): Promise<CitusCluster | undefined> {
  const rows = await queryAt(superuserUrl, async (client) => {
    const { rows: citus } = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'");
    if (citus.length === 0) return [];
    const { rows: nodes } = await client.query<{ host: string; port: number; groupid: number }>(
      "SELECT nodename AS host, nodeport AS port, groupid FROM pg_dist_node WHERE noderole = 'primary' ORDER BY groupid",
    );
    return nodes;
  });
  const coordinator = rows.find((node) => node.groupid === 0);
  if (!coordinator) return undefined;
  return { coordinator: { host: coordinator.host, port: coordinator.port }, workers: rows.filter((node) => node.groupid !== 0) };
}

/** The database `name` on every worker with the extension, and the extension and the nodes on the coordinator's (already created). */
export async function makeCitusDatabase(superuserUrl: string, cluster: CitusCluster, name: string, owner: string): Promise<void> {
  for (const worker of cluster.workers) {
    await queryAt(atNode(superuserUrl, worker, 'postgres'), (client) => client.query(`CREATE DATABASE ${name} OWNER ${pg.escapeIdentifier(owner)}`));
    await queryAt(atNode(superuserUrl, worker, name), (client) => client.query('CREATE EXTENSION citus'));
  }
  await queryAt(atNode(superuserUrl, cluster.coordinator, name), async (client) => {
    await client.query('CREATE EXTENSION citus');
    await client.query('SELECT citus_set_coordinator_host($1, $2)', [cluster.coordinator.host, cluster.coordinator.port]);
    for (const worker of cluster.workers) await client.query('SELECT citus_add_node($1, $2)', [worker.host, worker.port]);
  });
}

/**
 * Ends what Citus itself keeps connected to a test database on the coordinator (its maintenance
 * daemon, the deadlock detector's connections to itself), which would hold a DROP DATABASE off.
 */
export async function releaseCitusDatabase(superuserUrl: string, name: string): Promise<void> {
  await queryAt(superuserUrl, (client) =>
    client.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND (backend_type <> 'client backend' OR application_name LIKE 'citus%')",
      [name],
    ),
  );
}

/** Drops the workers' copies of a test database (the coordinator's is dropped as on PostgreSQL). */
export async function dropOnWorkers(superuserUrl: string, cluster: CitusCluster, name: string): Promise<void> {
  for (const worker of cluster.workers) {
    await queryAt(atNode(superuserUrl, worker, 'postgres'), (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

const atNode = (url: string, node: Node, database: string) =>
  Object.assign(new URL(url), { hostname: node.host, port: String(node.port), pathname: `/${database}` }).href;

async function queryAt<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
