/**
 * The drawing and the evidence PDF of a stored determination timed in this process, on the record
 * as GET /ownership/checks/{id} gave it back: the layout (who is drawn, rows, routes), the SVG
 * written from it, and the whole evidence PDF (its own layout, pdfkit, the fonts). What the
 * service's requests add to these is reading the record, checking its hash, auditing and HTTP.
 * The record is checked to hash as stored, and the SVG and PDF made here to be the bytes the
 * service sent, so the figures are for the same work.
 */
import { type OwnershipCheckRecord, recordSha256 } from '../../src/features/ownership/check-record.ts';
import { layoutOwnershipGraph } from '../../src/features/ownership/drawing/layout-ownership-graph.ts';
import type { OwnershipGraphLayout } from '../../src/features/ownership/drawing/layout-types.ts';
import { drawOwnershipGraphPdf } from '../../src/features/ownership/drawing/ownership-graph-pdf.ts';
import { ownershipGraphSvg } from '../../src/features/ownership/drawing/ownership-graph-svg.ts';
import { renderDeterminationEvidence } from '../../src/features/ownership/evidence/determination-evidence.ts';
import { renderOwnershipEvidencePdf } from '../../src/features/ownership/evidence/render-ownership-evidence.ts';

export type InProcessRun = {
  layoutMs: number[];
  svgMs: number[];
  pdfMs: number[];
  layout: Pick<OwnershipGraphLayout, 'counts' | 'width' | 'height'> & { nodes: number; edges: number };
  /** The scale the evidence PDF draws the graph at to fit its box (1: full size). */
  pdfScale: number;
  /** The record as GET answered it, re-hashed here, matches its `record_sha256`; and the service's own check (`record_sha256_verified`). */
  recordVerified: boolean;
  serviceVerified: boolean;
  sameSvg: boolean;
  samePdf: boolean;
};

/** What GET /ownership/checks/{id} adds around the record (check-present.ts). */
type Presented = OwnershipCheckRecord & { object: string; superseded_by: unknown; case_id: unknown; record_sha256: string; record_sha256_verified: boolean };

export async function inProcess(
  presented: Presented,
  organization: { id: string; name: string },
  runs: number,
  served: { svg: string; pdf: Buffer },
): Promise<InProcessRun> {
  const {
    object: _object,
    superseded_by: _supersededBy,
    case_id: _caseId,
    record_sha256: stored,
    record_sha256_verified: serviceVerified,
    ...record
  } = presented;
  const check = { record, recordSha256: stored, caseId: null, supersededBy: null };
  const run: Omit<InProcessRun, 'layout' | 'pdfScale' | 'sameSvg' | 'samePdf'> = {
    layoutMs: [],
    svgMs: [],
    pdfMs: [],
    recordVerified: recordSha256(record) === stored,
    serviceVerified,
  };
  let layout = layoutOwnershipGraph(record.request, record.answer);
  let svg = '';
  let pdf: Buffer = Buffer.alloc(0);
  // One warm-up round first, not counted, as for the requests.
  for (let r = -1; r < runs; r++) {
    const started = performance.now();
    layout = layoutOwnershipGraph(record.request, record.answer);
    const laidOut = performance.now();
    svg = ownershipGraphSvg(layout);
    const drawn = performance.now();
    pdf = await renderDeterminationEvidence(organization, check);
    const rendered = performance.now();
    if (r < 0) continue;
    run.layoutMs.push(laidOut - started);
    run.svgMs.push(drawn - laidOut);
    run.pdfMs.push(rendered - drawn);
  }
  // The PDF once more, as determination-evidence.ts makes it, keeping the scale the whole drawing took (the first; enlarged parts follow it).
  let pdfScale: number | undefined;
  const keepFirst = (scale: number) => {
    pdfScale ??= scale;
  };
  await renderOwnershipEvidencePdf(
    { organization, check: { ...record, record_sha256: stored } },
    {
      graph: {
        width: layout.width,
        height: layout.height,
        draw: (doc, box, region) => keepFirst(drawOwnershipGraphPdf(doc, layout, box, { region }).scale),
      },
    },
  );
  const { counts, width, height } = layout;
  return {
    ...run,
    pdfScale: pdfScale ?? 1,
    layout: { counts, width, height, nodes: layout.nodes.length, edges: layout.edges.length },
    sameSvg: svg === served.svg,
    samePdf: pdf.equals(served.pdf),
  };
}
