/** A stored determination's evidence PDF, from its record as read back, with its graph drawn as the console draws it. */
import type { StoredCheck } from '../check-store.ts';
import { layoutOwnershipGraph } from '../drawing/layout-ownership-graph.ts';
import { drawOwnershipGraphPdf } from '../drawing/ownership-graph-pdf.ts';
import { renderOwnershipEvidencePdf } from './render-ownership-evidence.ts';

export function renderDeterminationEvidence(organization: { id: string; name: string }, stored: StoredCheck): Promise<Buffer> {
  const { record } = stored;
  const layout = layoutOwnershipGraph(record.request, record.answer);
  return renderOwnershipEvidencePdf(
    { organization, check: { ...record, record_sha256: stored.recordSha256 } },
    { graph: { width: layout.width, height: layout.height, draw: (doc, box, region) => void drawOwnershipGraphPdf(doc, layout, box, { region }) } },
  );
}
