/**
 * bench:ownership-record's figures as Markdown: the graph and its answer, each timed step over
 * HTTP (median and range, the warm-up apart) with the bytes it answered, the drawing's counts
 * (from the layout and from the SVG served), the PDF's pages, the same work timed in process, and
 * the machine's load and the service's memory, which bear on every figure.
 */
import type { InProcessRun } from './record-in-process.ts';

export type Step = 'store' | 'record' | 'svg' | 'pdf';

export type RecordRun = {
  database: string;
  embedded: boolean;
  requestBytes: number;
  answer: {
    id: string;
    ofac: { blocked: boolean; determinate: boolean; paths: unknown[] };
    bis: { restricted: boolean; determinate: boolean; paths: unknown[] };
    warnings: { code: string }[];
    screening: { names_screened: number; entities_matched: number; entities_designated: number };
  };
  steps: Record<Step, { ms: number[]; bytes: number[] }>;
  /** The warm-up run's times, not counted. */
  first: Record<Step, number>;
  svg: string;
  pdf: Buffer;
  inProcess: InProcessRun;
  /** The 1-minute load average as the runs began and as they ended. */
  load: { start: number; end: number };
  rss: { ready: number; peak: number };
};

const STEP_NAMES: Record<Step, string> = {
  store: 'POST /v1/ownership/check, `store` and `screen_names`',
  record: 'GET /v1/ownership/checks/{id} (the record, hash verified)',
  svg: 'GET /console/ownership/{id}/graph.svg (signed in as a viewer)',
  pdf: 'GET /v1/ownership/checks/{id}/evidence (the PDF)',
};

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const median = (values: readonly number[]) => sorted(values)[Math.floor(values.length / 2)] as number;
const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : value >= 10 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);
const kib = (bytes: number) => `${(bytes / 1024).toLocaleString('en', { maximumFractionDigits: 1 })} KiB`;
const range = (values: readonly number[]) => `${ms(sorted(values)[0] as number)} – ${ms(sorted(values).at(-1) as number)}`;
const byteRange = (values: readonly number[]) => {
  const [low, high] = [kib(Math.min(...values)), kib(Math.max(...values))];
  return low === high ? low : `${low} – ${high}`;
};
const yes = (ok: boolean) => (ok ? 'yes' : '**no**');

/** Pages in a pdfkit document: its page objects (/Type /Page, not /Pages) are written uncompressed. */
export const pdfPageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

export function recordTable(run: RecordRun, settings: { entities: number; seed: number; runs: number }): string[] {
  const { answer, inProcess: here } = run;
  const { counts } = here.layout;
  const rule = (reached: boolean, determinate: boolean, word: string, paths: number) =>
    `${reached ? word : determinate ? `not ${word}` : 'not determinate'} (${paths} path${paths === 1 ? '' : 's'})`;
  const served = { parties: (run.svg.match(/data-kind="party"/g) ?? []).length, groups: (run.svg.match(/data-kind="collapsed"/g) ?? []).length };
  return [
    `${run.database}. One graph of ${settings.entities.toLocaleString('en')} parties (bench/ownership/record-graph.ts, seed ${settings.seed}; the request ${kib(run.requestBytes)} of JSON): ` +
      `every undesignated party screened by name against the six real lists (${answer.screening.names_screened.toLocaleString('en')} distinct names; ${answer.screening.entities_matched} parties matched, ${answer.screening.entities_designated} designated by screening). ` +
      `The answer: OFAC ${rule(answer.ofac.blocked, answer.ofac.determinate, 'blocked', answer.ofac.paths.length)}, BIS ${rule(answer.bis.restricted, answer.bis.determinate, 'restricted', answer.bis.paths.length)}; ` +
      `warnings ${answer.warnings.map((w) => w.code).join(', ') || 'none'}. ${settings.runs} runs one after the other after a warm-up run, each reading back the determination it stored; ` +
      `load average ${run.load.start.toFixed(2)} as they began and ${run.load.end.toFixed(2)} as they ended (a shared machine: others' work slows the figures).`,
    '',
    '| step, over HTTP | median | range | warm-up run | bytes answered |',
    '|---|---|---|---|---|',
    ...(Object.keys(STEP_NAMES) as Step[]).map((step) => {
      const { ms: times, bytes } = run.steps[step];
      return `| ${STEP_NAMES[step]} | ${ms(median(times))} | ${range(times)} | ${ms(run.first[step])} | ${byteRange(bytes)} |`;
    }),
    '',
    `The drawing: ${counts.drawn} of ${counts.parties.toLocaleString('en')} parties drawn as themselves and ${counts.collapsed.toLocaleString('en')} collapsed in ${counts.groups} groups ` +
      `(${here.layout.nodes} nodes, ${here.layout.edges} edges, ${here.layout.width} × ${here.layout.height} px; the PDF draws it whole at ${(here.pdfScale * 100).toFixed(1)} % to fit its box, and again enlarged in parts when that is too small to read); the SVG served has ${served.parties} party nodes and ${served.groups} collapsed-group nodes, ${kib(Buffer.byteLength(run.svg))}. ` +
      `The evidence PDF: ${pdfPageCount(run.pdf)} pages, ${kib(run.pdf.length)}.`,
    '',
    '| the same, in this process on the last record | median | range |',
    '|---|---|---|',
    `| layout (layoutOwnershipGraph: collapse, rows, placement) | ${ms(median(here.layoutMs))} | ${range(here.layoutMs)} |`,
    `| SVG written from the layout (ownershipGraphSvg) | ${ms(median(here.svgMs))} | ${range(here.svgMs)} |`,
    `| evidence PDF (renderDeterminationEvidence: its layout, then pdfkit) | ${ms(median(here.pdfMs))} | ${range(here.pdfMs)} |`,
    '',
    `The record as GET answered it, hashed here, matches its record_sha256: ${yes(here.recordVerified)} (the service's own check, record_sha256_verified: ${yes(here.serviceVerified)}). The SVG and the PDF made in this process are byte for byte those the service sent: ${yes(here.sameSvg)}, ${yes(here.samePdf)}. ` +
      `Service RSS ${run.rss.ready} MiB once ready, peak ${run.rss.peak} MiB over the whole run${run.embedded ? ' (on the embedded database, PostgreSQL in WebAssembly is in the same process)' : ''}.`,
  ];
}
