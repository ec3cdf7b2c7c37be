/**
 * npm run bench:ownership-record [-- --entities N] [--runs N] [--only embedded|postgres]
 *                                  [--database-url URL] [--data DIR] [--seed S] [--no-write]
 *
 * Keeping and showing one large ownership determination (issue 29), through the real service on
 * each database: a graph of 1,000 parties (bench/ownership/record-graph.ts: a layered holding
 * structure, listed owners given so that both rules decide down paths, unknown stakes, one cycle)
 * checked with `store` and every undesignated party screened by name against the real lists, then
 * read back: the record (GET /ownership/checks/{id}), the console's drawing of it
 * (/console/ownership/{id}/graph.svg, signed in as a viewer) and its evidence PDF
 * (GET /ownership/checks/{id}/evidence). Each step `--runs` times after one warm-up run, each run
 * on the determination it stored; median, p95 and the range, the bytes of each answer, the PDF's
 * pages, the parties drawn and collapsed. The last record is then laid out, drawn and rendered in
 * this process as well, to say how much of each request is the drawing itself (bench/ownership/
 * record-in-process.ts). Writes a section per database to BENCHMARKS.md.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { parseOfacLegacy } from '../src/screening/lists/ofac-legacy.ts';
import { type BenchDatabase, openDatabases } from './api/databases.ts';
import { createBenchOrganization, importLists, startReadyService } from './api/prepared-service.ts';
import { rssMiB, sdnRows } from './api/sdn-update.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { exitOnUsageProblem, positiveInteger, readDataFile, resolveDataDir, UsageError } from './matching/eval-data.ts';
import { consoleSession, createConsoleViewer } from './ownership/console-session.ts';
import { namePools } from './ownership/name-pools.ts';
import { recordGraph } from './ownership/record-graph.ts';
import { inProcess } from './ownership/record-in-process.ts';
import { type RecordRun, recordTable, type Step } from './ownership/record-report.ts';
import { running, stopEverything } from './running-processes.ts';

const AS_OF = '2026-11-22';
const ORGANIZATION = 'bench:ownership-record';

const say = (text: string) => process.stderr.write(`bench:ownership-record: ${text}\n`);

try {
  const { values } = parseArgs({
    options: {
      entities: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '9' },
      only: { type: 'string' },
      'database-url': { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string', default: '20261125' },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const entities = positiveInteger('--entities', values.entities);
  const runs = positiveInteger('--runs', values.runs);
  const seed = positiveInteger('--seed', values.seed);
  if (entities < 20) throw new UsageError('--entities must be 20 or more');
  if (values.only && !['embedded', 'postgres'].includes(values.only)) throw new UsageError('--only must be embedded or postgres');
  const dataDir = resolveDataDir(values.data);
  const sdn = parseOfacLegacy('OFAC_SDN', { main: `${sdnRows(readDataFile(dataDir, 'ofac_sdn_2024-05/sdn.csv', 'latin1')).join('\r\n')}\r\n` });
  const body = recordGraph(entities, namePools(dataDir, sdn.entities), { seed, asOf: AS_OF });

  for await (const { name, database } of openDatabases(values.only, values['database-url'] ?? process.env.DATABASE_URL, say)) {
    running.push(database.close);
    const run = await measureOn(database, name === 'embedded', dataDir, body, runs);
    await running.pop()?.();
    const table = recordTable(run, { entities, seed, runs });
    console.log(`\n## ${database.label}\n\n${table.join('\n')}`);
    if (values.write)
      recordBenchmark(
        `Ownership determination on record, 1,000-entity graph, ${name === 'embedded' ? 'embedded PGlite' : 'PostgreSQL'}`,
        'npm run bench:ownership-record',
        table,
      );
  }
} catch (error) {
  await stopEverything();
  exitOnUsageProblem('bench:ownership-record', error);
} finally {
  await stopEverything();
}

async function measureOn(database: BenchDatabase, embedded: boolean, dataDir: string, body: ReturnType<typeof recordGraph>, runs: number): Promise<RecordRun> {
  say(`${database.label}: importing the lists`);
  importLists(database, dataDir);
  const { apiKey, organizationId } = createBenchOrganization(database.env, ORGANIZATION);
  const setupUrl = createConsoleViewer(database.env, organizationId, 'bench.viewer@example.com');
  const { service } = await startReadyService(database);
  running.push(() => service.stop());
  const api = service.baseUrl.replace(/\/api$/, '/api/v1');
  const origin = new URL(service.baseUrl).origin;
  const bearer = { authorization: `Bearer ${apiKey}` };
  const cookie = await consoleSession(origin, setupUrl);
  const json = JSON.stringify(body);
  const rssAtReady = rssMiB(service.pid, 'VmRSS');

  const steps: Record<Step, { ms: number[]; bytes: number[] }> = { store: empty(), record: empty(), svg: empty(), pdf: empty() };
  const first: Partial<Record<Step, number>> = {};
  let last: { answer: Answer; record: Buffer; svg: Buffer; pdf: Buffer } | undefined;
  const loadAtStart = os.loadavg()[0] ?? 0;
  for (let r = 0; r <= runs; r++) {
    const stored = await timedRequest(`${api}/ownership/check`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: json });
    const answer = JSON.parse(stored.bytes.toString('utf8')) as Answer;
    const record = await timedRequest(`${api}/ownership/checks/${answer.id}`, { headers: bearer });
    const svg = await timedRequest(`${origin}/console/ownership/${answer.id}/graph.svg`, { headers: { cookie } });
    const pdf = await timedRequest(`${api}/ownership/checks/${answer.id}/evidence`, { headers: bearer });
    const measured = { store: stored, record, svg, pdf };
    for (const step of Object.keys(measured) as Step[]) {
      // The first run warms the service up (compilation, caches); it is shown apart, not counted.
      if (r === 0) first[step] = measured[step].ms;
      else {
        steps[step].ms.push(measured[step].ms);
        steps[step].bytes.push(measured[step].bytes.length);
      }
    }
    last = { answer, record: record.bytes, svg: svg.bytes, pdf: pdf.bytes };
    say(
      `run ${r === 0 ? 'warm-up' : r}: ${Object.entries(measured)
        .map(([step, m]) => `${step} ${m.ms.toFixed(0)} ms`)
        .join(', ')}`,
    );
  }
  const loadAtEnd = os.loadavg()[0] ?? 0;
  const peakRss = rssMiB(service.pid, 'VmHWM');
  await service.stop();
  running.pop();

  const done = last as NonNullable<typeof last>;
  say('laying out, drawing and rendering the last record in this process');
  return {
    database: database.label,
    embedded,
    requestBytes: Buffer.byteLength(json),
    answer: done.answer,
    steps,
    first: first as Record<Step, number>,
    svg: done.svg.toString('utf8'),
    pdf: done.pdf,
    inProcess: await inProcess(JSON.parse(done.record.toString('utf8')), { id: organizationId, name: ORGANIZATION }, runs, {
      svg: done.svg.toString('utf8'),
      pdf: done.pdf,
    }),
    load: { start: loadAtStart, end: loadAtEnd },
    rss: { ready: rssAtReady, peak: peakRss },
  };
}

type Answer = RecordRun['answer'];

function empty(): { ms: number[]; bytes: number[] } {
  return { ms: [], bytes: [] };
}

/** One request, timed from sending it to the last byte of its answer read; anything but 200 ends the run. */
async function timedRequest(url: string, init: RequestInit): Promise<{ ms: number; bytes: Buffer }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${bytes.toString('utf8').slice(0, 2000)}`);
  return { ms, bytes };
}
