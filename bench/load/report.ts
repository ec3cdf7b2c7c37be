/**
 * bench:load's figures as Markdown: a table of steps for each database (and for the ceiling),
 * the mix's endpoints at the steps the targets name, the issue's verdicts, and the soak.
 */
import type { Ceiling } from './ceiling.ts';
import { MIX_SHARES } from './mix.ts';
import type { SoakResult } from './soak.ts';
import { capacity, failuresOf, type StepResult } from './steps.ts';

export type DatabaseLoadRun = {
  database: 'embedded' | 'postgres';
  label: string;
  lists: { count: number; entities: number };
  seeded: { organizations: number; screenings: number; potentialMatches: number; seconds: number; sessions: number; sessionSeconds: number };
  pinning: string;
  settings: { seconds: number; warmUpSeconds: number };
  steps: StepResult[];
  soak?: SoakResult;
};

/** The issue's targets on this 2-core machine. */
export const TARGETS = {
  postgres: { rate: 300, p95Ms: 20, p99Ms: 50, capacityRate: 1000, capacityP95Ms: 50 },
  embedded: { rate: 150, p95Ms: 30 },
} as const;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const rate = (value: number) => `${Math.round(value).toLocaleString('en')}/s`;
const errors = (s: StepResult) =>
  [
    ...Object.entries(s.refusals).map(([status, n]) => `${n} × ${status}`),
    ...(s.connectionErrors ? [`${s.connectionErrors} connection errors`] : []),
    ...(s.timeouts ? [`${s.timeouts} timeouts`] : []),
  ].join(', ') || 'none';

export function stepTable(steps: readonly StepResult[], withDatabase: boolean): string[] {
  return [
    `| offered | achieved | p50 | p95 | p99 | max | errors by status | server CPU | server RSS (peak) |${withDatabase ? ' PostgreSQL CPU |' : ''} generator CPU | connections | load average |`,
    `|---|---|---|---|---|---|---|---|---|${withDatabase ? '---|' : ''}---|---|---|`,
    ...steps.map(
      (s) =>
        `| ${rate(s.offeredRate)}${s.repeated ? ' (again)' : ''} | ${rate(s.achievedRate)} | ${ms(s.all.p50)} | ${ms(s.all.p95)} | ${ms(s.all.p99)} | ${ms(s.all.max)} | ${errors(s)} | ${s.serverCpuPercent}% | ${s.serverRssMiB} MiB (${s.serverPeakRssMiB}) |${withDatabase ? ` ${s.databaseCpuPercent ?? '—'}% |` : ''} ${s.generatorCpuPercent}% | ${s.connections} | ${s.loadAverage.toFixed(2)} |`,
    ),
  ];
}

function endpointTable(step: StepResult): string[] {
  return [
    '| endpoint | answered | p50 | p95 | p99 | max |',
    '|---|---|---|---|---|---|',
    ...Object.entries(step.byTag).map(([tag, s]) => `| ${tag} | ${s.count.toLocaleString('en')} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |`),
  ];
}

/** The step at this rate, its repeat when it had one. */
const stepAt = (steps: readonly StepResult[], offered: number) => steps.filter((s) => s.offeredRate === offered).at(-1);
/** Where stepping stopped: the last step, when it and the measurement before it both degraded. */
const knee = (steps: readonly StepResult[]) => (steps.at(-1)?.stoppedBecause && steps.at(-1)?.repeated ? steps.at(-1) : undefined);

export function verdicts(run: DatabaseLoadRun, ceiling: Ceiling | undefined): string[] {
  const lines: string[] = [];
  if (run.database === 'postgres') {
    const t = TARGETS.postgres;
    const at = stepAt(run.steps, t.rate);
    const misses = at
      ? [
          ...(at.all.p95 >= t.p95Ms ? [`p95 ${ms(at.all.p95)}`] : []),
          ...(at.all.p99 >= t.p99Ms ? [`p99 ${ms(at.all.p99)}`] : []),
          ...(failuresOf(at) > 0 ? [`errors: ${errors(at)}`] : []),
          ...(at.achievedRate < 0.97 * at.offeredRate ? [`achieved ${rate(at.achievedRate)}`] : []),
        ]
      : ['not measured'];
    lines.push(
      `- ${t.rate}/s of the mix, p95 under ${t.p95Ms} ms, p99 under ${t.p99Ms} ms, no errors: ${misses.length === 0 && at ? `**met** (p95 ${ms(at.all.p95)}, p99 ${ms(at.all.p99)})` : `**missed** (${misses.join(', ')})`}.`,
    );
    const best = capacity(run.steps, t.capacityP95Ms);
    lines.push(
      `- Sustained capacity at least ${rate(t.capacityRate)} with p95 under ${t.capacityP95Ms} ms: ${best && best.offeredRate >= t.capacityRate ? '**met**' : '**missed**'} (highest step held: ${best ? `${rate(best.offeredRate)}, p95 ${ms(best.all.p95)}` : 'none'}${ratio(best, ceiling)}).`,
    );
  } else {
    const t = TARGETS.embedded;
    const at = stepAt(run.steps, t.rate);
    const ok = at && at.all.p95 < t.p95Ms && failuresOf(at) === 0 && at.achievedRate >= 0.97 * at.offeredRate;
    lines.push(
      `- ${t.rate}/s of the mix with p95 under ${t.p95Ms} ms: ${ok ? '**met**' : '**missed**'} (${at ? `p95 ${ms(at.all.p95)}, achieved ${rate(at.achievedRate)}, errors ${errors(at)}` : 'not measured'}).`,
    );
    const best = capacity(run.steps, t.p95Ms);
    lines.push(`- Highest step held with p95 under ${t.p95Ms} ms and no error: ${best ? rate(best.offeredRate) : 'none'}${ratio(best, ceiling)}.`);
  }
  const stop = knee(run.steps);
  if (stop) lines.push(`- Stepping stopped at ${rate(stop.offeredRate)}, measured twice: ${stop.stoppedBecause}.`);
  return lines;
}

function ratio(step: StepResult | undefined, ceiling: Ceiling | undefined): string {
  if (!step || !ceiling) return '';
  const bare = capacity(ceiling.bare, 50);
  const healthz = capacity(ceiling.healthz, 50);
  const part = (c: StepResult | undefined, name: string) =>
    c ? `${((100 * step.offeredRate) / c.offeredRate).toFixed(1)}% of ${name}'s ${rate(c.offeredRate)}` : '';
  return `; ${[part(bare, 'the bare server'), part(healthz, 'GET /healthz')].filter(Boolean).join(', ')}`;
}

export function databaseSection(run: DatabaseLoadRun, ceiling: Ceiling | undefined): string[] {
  const s = run.seeded;
  const mix = Object.entries(MIX_SHARES)
    .map(([tag, share]) => `${tag} ${share * 5}%`)
    .join(', ');
  const target = run.database === 'postgres' ? TARGETS.postgres.rate : TARGETS.embedded.rate;
  const targetStep = stepAt(run.steps, target);
  const best = capacity(run.steps, run.database === 'postgres' ? TARGETS.postgres.capacityP95Ms : TARGETS.embedded.p95Ms);
  return [
    `${run.label[0]?.toUpperCase()}${run.label.slice(1)}. Lists: ${run.lists.count} imported (${run.lists.entities.toLocaleString('en')} entities).`,
    `Seeded before measuring: ${s.organizations} organizations (Enterprise), ${s.screenings.toLocaleString('en')} stored screenings through the service's screening pipeline in process (${s.potentialMatches.toLocaleString('en')} potential matches, each with its case, audit event and outbox events) in ${s.seconds.toFixed(0)} s, then ${s.sessions.toLocaleString('en')} visitor sessions by check-ins over HTTP in ${s.sessionSeconds.toFixed(0)} s.`,
    `Mix: ${mix}; each request for a random organization with its own key. Each step: ${run.settings.warmUpSeconds} s at its rate not counted, then ${run.settings.seconds} s measured, each request due at a fixed time (latency counts from then: bench/api/paced-load.ts). ${run.pinning}`,
    '',
    ...stepTable(run.steps, run.database === 'postgres'),
    '',
    ...(targetStep ? [`By endpoint at ${rate(target)}:`, '', ...endpointTable(targetStep), ''] : []),
    ...(best && best !== targetStep ? [`By endpoint at ${rate(best.offeredRate)}, the highest step held:`, '', ...endpointTable(best), ''] : []),
    'Targets:',
    '',
    ...verdicts(run, ceiling),
  ];
}

export function ceilingSection(ceiling: Ceiling, pinning: string): string[] {
  const line = (name: string, steps: readonly StepResult[]) => {
    const best = capacity(steps, 50);
    return `| ${name} | ${best ? rate(best.offeredRate) : 'none'} | ${best ? ms(best.all.p50) : '—'} | ${best ? ms(best.all.p99) : '—'} | ${best ? `${best.serverCpuPercent}%` : '—'} | ${best ? `${best.generatorCpuPercent}%` : '—'} |`;
  };
  return [
    `The same generator, stepping, connections and pinning as the mix (${pinning.replace(/\.$/, '')}). A bare Node.js \`http\` server answering a fixed small JSON, and the service's \`GET /api/healthz\` (Fastify with every hook, no database).`,
    '',
    '| server | highest step held (p95 < 50 ms, no error) | p50 there | p99 there | server CPU there | generator CPU there |',
    '|---|---|---|---|---|---|',
    line('bare node:http', ceiling.bare),
    line('GET /api/healthz', ceiling.healthz),
    '',
    'Bare node:http, every step:',
    '',
    ...stepTable(ceiling.bare, false),
    '',
    'GET /api/healthz, every step:',
    '',
    ...stepTable(ceiling.healthz, false),
  ];
}

export function soakSection(run: DatabaseLoadRun): string[] {
  const soak = run.soak;
  if (!soak) return [];
  const failures = Object.values(soak.refusals).reduce((a, b) => a + b, 0) + soak.connectionErrors + soak.timeouts;
  const warm = soak.samples.filter((s) => s.atSeconds >= soak.warmUpSeconds);
  const range = (values: number[], unit: string) => (values.length ? `${Math.min(...values).toFixed(1)} – ${Math.max(...values).toFixed(1)}${unit}` : '—');
  const connections = warm.map((s) => s.databaseConnections).filter((n): n is number => n !== null);
  const ok = failures === 0 && soak.rssGrowthPercent < 10;
  return [
    `${run.label}, the mix at ${rate(soak.rate)} (half the highest step held) for ${soak.seconds} s; the first ${soak.warmUpSeconds} s are warm-up. Load average ${soak.loadAverage.toFixed(2)} as it began.`,
    '',
    '| achieved | p50 | p95 | p99 | max | errors | RSS after warm-up → end | RSS growth | event-loop p99 per 10 s | event-loop max per 10 s | database connections |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${rate(soak.achievedRate)} | ${ms(soak.all.p50)} | ${ms(soak.all.p95)} | ${ms(soak.all.p99)} | ${ms(soak.all.max)} | ${failures === 0 ? 'none' : failures} | ${warm[0]?.rssMiB ?? '—'} → ${soak.samples.at(-1)?.rssMiB} MiB | ${soak.rssGrowthPercent.toFixed(1)}% | ${range(
      warm.map((s) => s.eventLoopP99Ms),
      ' ms',
    )} | ${range(
      warm.map((s) => s.eventLoopMaxMs),
      ' ms',
    )} | ${connections.length ? `${Math.min(...connections)} – ${Math.max(...connections)}` : 'one, in process'} |`,
    '',
    `Target, no error and RSS growth under 10% after warm-up: ${ok ? '**met**' : '**missed**'}.`,
  ];
}
