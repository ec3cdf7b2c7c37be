/**
 * npm run bench:audit-export [-- --events N]
 *
 * Does the audit export stream in constant memory? Seeds N audit events (default 1,000,000) in
 * one organization, starts the service as its own process, downloads the whole export over real
 * HTTP, and samples the server's resident memory while it streams. Runs on PostgreSQL when
 * DATABASE_URL is set, otherwise on the embedded database. Writes its figures to BENCHMARKS.md.
 *
 * The seeded events are written straight into the table (one INSERT … SELECT), not through the
 * chain, so their hashes are filler: this measures streaming, not chain verification.
 */
import fs from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { openPgliteConnection } from '../src/db/pglite-connection.ts';
import { openPostgresConnection } from '../src/db/postgres-connection.ts';
import { processDatabase, runCli, startServerProcess } from '../test/helpers/server-process.ts';
import { recordBenchmark } from './benchmarks-file.ts';

const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' } } });
const events = Number(values.events);

const storage = await processDatabase();
const env: Record<string, string> = { ...storage.env, SANDBOX_BOOTSTRAP: 'false' };
const backend = env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
try {
  const org = JSON.parse(runCli(['orgs', 'create', '--name', 'Bench', '--tier', 'enterprise'], env).stdout).id as string;
  const key = JSON.parse(runCli(['keys', 'create', '--org', org, '--admin'], env).stdout).key as string;

  const seedStarted = performance.now();
  await seed(env, org, events);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  process.stderr.write(`seeded ${events} events on ${backend} in ${seedSeconds.toFixed(1)} s\n`);

  const server = await startServerProcess(env);
  const pid = server.child.pid as number;
  const baseline = rssMiB(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  const started = performance.now();
  const { lines, bytes } = await download(`${server.baseUrl}/v1/audit/export`, key);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await server.stop();

  const result = {
    backend,
    events_exported: lines,
    megabytes: +(bytes / 1048576).toFixed(1),
    seconds: +seconds.toFixed(1),
    events_per_second: Math.round(lines / seconds),
    server_rss_before_mib: baseline,
    server_rss_peak_mib: peak,
  };
  console.log(JSON.stringify(result));
  recordBenchmark(`Audit export, ${events.toLocaleString('en')} events, ${backend}`, 'npm run bench:audit-export', [
    `| events | size | time | rate | server RSS before | server RSS peak |`,
    `|---|---|---|---|---|---|`,
    `| ${lines.toLocaleString('en')} | ${result.megabytes} MiB | ${result.seconds} s | ${result.events_per_second.toLocaleString('en')} events/s | ${baseline} MiB | ${peak} MiB |`,
  ]);
} finally {
  await storage.cleanup();
}

async function seed(env: Record<string, string>, org: string, count: number) {
  const connection = env.DATABASE_URL ? await openPostgresConnection({ url: env.DATABASE_URL, poolSize: 1 }) : await openPgliteConnection(env.DATA_DIR);
  try {
    await connection.withSession(async (session) => {
      const [{ max } = { max: 0 }] = await session.query<{ max: number }>(
        'SELECT coalesce(max(seq), 0)::int AS max FROM audit_events WHERE organization_id = $1',
        [org],
      );
      await session.query(
        `INSERT INTO audit_events (organization_id, seq, occurred_at, actor_type, actor_id, action, target_type, target_id,
                                   request_id, outcome, details, prev_hash, hash)
         SELECT $1, $2::int + g, now(), 'api_key', 'key_bench', 'api_key.created', 'api_key', 'key_' || g,
                'bench-' || (g % 1000), 'success', jsonb_build_object('i', g, 'name', 'benchmark key'),
                sha256(int8send(g - 1)), sha256(int8send(g))
           FROM generate_series(1, $3::int) AS g`,
        [org, max, count],
      );
      await session.query('UPDATE audit_heads SET seq = $2, hash = sha256(int8send($2::bigint)) WHERE organization_id = $1', [org, max + count]);
    });
  } finally {
    await connection.close();
  }
}

function download(url: string, key: string): Promise<{ lines: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${key}` } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`export answered ${response.statusCode}`));
        let lines = 0;
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (const byte of chunk) if (byte === 10) lines++;
        });
        response.on('end', () => resolve({ lines, bytes }));
      })
      .on('error', reject);
  });
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}
