/**
 * The ownership graph as a picture. The drawing is given by the caller (options.drawGraph), so
 * this document does not depend on how the graph is laid out; it is handed a box the text width
 * wide and up to 60% of a page high, on one page, and the text resumes below it.
 */
import type { EvidenceWriter } from '../../../evidence/evidence-writer.ts';
import type { OwnershipEvidenceInput, OwnershipEvidenceOptions } from './ownership-evidence-input.ts';

const GRAPH_SHARE_OF_PAGE = 0.6;

export function writeGraph(w: EvidenceWriter, { check }: OwnershipEvidenceInput, options: OwnershipEvidenceOptions) {
  const height = Math.floor(w.textHeight * GRAPH_SHARE_OF_PAGE);
  if (!options.drawGraph) {
    w.heading('Ownership graph');
    w.paragraph(
      `The graph of this determination is drawn in the Gatehouse console (ownership check ${check.id}): its parties, the stakes between them, ` +
        'the listed parties with their lists, and the paths that decided each rule. The parties and stakes that decided are listed in this document.',
    );
    return;
  }
  w.heading('Ownership graph', height);
  const box = w.reserve(height);
  const { doc } = w;
  // The drawing's colours, line widths and transforms stay inside it.
  doc.save();
  try {
    options.drawGraph(doc, box);
  } finally {
    doc.restore();
  }
  doc.x = box.x;
  doc.y = box.y + box.height;
}
