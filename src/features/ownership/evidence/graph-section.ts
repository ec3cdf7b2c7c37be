/**
 * The ownership graph as a picture. The drawing is given by the caller (options.graph), so this
 * document does not depend on how the graph is laid out. The whole graph is drawn in a box the
 * text width wide and up to 60% of a page high, on one page, and the text resumes below it.
 *
 * A graph too wide or too tall for its names to be read at that size (a wide holding structure
 * drawn at a few percent) is then drawn again enlarged, in parts, each a cut of the drawing at a
 * scale names can be read at, overlapping its neighbours a little, so that an auditor can follow
 * every edge on the printed pages. Holding structures are wide and shallow: the parts are strips,
 * as many to a page as fit, one under the other.
 */
import type { EvidenceWriter } from '../../../evidence/evidence-writer.ts';
import type { GraphBox, GraphDrawing, OwnershipEvidenceInput, OwnershipEvidenceOptions } from './ownership-evidence-input.ts';

const GRAPH_SHARE_OF_PAGE = 0.6;
/** The drawing's 8-point names print at 4 points and more: small, and readable. */
const READABLE_SCALE = 0.5;
/** At most this many parts; a larger drawing is cut into as many, each drawn smaller. */
const MAX_PARTS = 60;
/** What each part repeats of its neighbour's edge, in the drawing's units, so that no node is only ever seen cut. */
const OVERLAP = 40;
/** What a part's label takes above it, at most. */
const LABEL_ROOM = 30;

export function writeGraph(w: EvidenceWriter, { check }: OwnershipEvidenceInput, options: OwnershipEvidenceOptions) {
  const { graph } = options;
  if (!graph) {
    w.heading('Ownership graph');
    w.paragraph(
      `The graph of this determination is drawn in the Gatehouse console (ownership check ${check.id}): its parties, the stakes between them, ` +
        'the listed parties with their lists, and the paths that decided each rule. The parties and stakes that decided are listed in this document.',
    );
    return;
  }
  const room = { width: w.width, height: Math.floor(w.textHeight * GRAPH_SHARE_OF_PAGE) };
  // The whole drawing, in a box no taller than it needs at the scale its width allows.
  const fit = Math.min(1, room.width / graph.width, room.height / graph.height);
  const height = Math.ceil(graph.height * fit);
  w.heading('Ownership graph', height);
  draw(w, graph, w.reserve(height));
  const parts = enlargedParts(graph, { width: w.width, height: w.textHeight - LABEL_ROOM });
  if (parts.length === 0) return;
  w.doc.moveDown(0.5);
  w.paragraph(
    `Drawn whole, the graph is too large for its names to be read: it follows enlarged, in ${parts.length} parts ` +
      '(left to right, then top to bottom), each overlapping its neighbours a little.',
  );
  parts.forEach((region, i) => {
    const scale = Math.min(1, w.width / region.width);
    const partHeight = Math.ceil(region.height * scale);
    w.ensureSpace(LABEL_ROOM + partHeight);
    w.paragraph(`Ownership graph, part ${i + 1} of ${parts.length}`, { font: 'bold' });
    draw(w, graph, w.reserve(partHeight), region);
  });
}

function draw(w: EvidenceWriter, graph: GraphDrawing, box: GraphBox, region?: GraphBox) {
  const { doc } = w;
  // The drawing's colours, line widths, clipping and transforms stay inside it.
  doc.save();
  try {
    graph.draw(doc, box, region);
  } finally {
    doc.restore();
  }
  doc.x = box.x;
  doc.y = box.y + box.height;
}

/** The regions of the drawing, row by row, that a page's `room` shows at a readable scale; none when the whole already reads in `room`. */
export function enlargedParts(graph: Pick<GraphDrawing, 'width' | 'height'>, room: { width: number; height: number }): GraphBox[] {
  const whole = Math.min(1, room.width / graph.width, (room.height * GRAPH_SHARE_OF_PAGE) / graph.height);
  if (whole >= READABLE_SCALE) return [];
  let scale = Math.min(1, READABLE_SCALE);
  const count = (s: number) => Math.ceil(graph.width / (room.width / s - OVERLAP)) * Math.ceil(graph.height / (room.height / s - OVERLAP));
  while (count(scale) > MAX_PARTS && scale > whole) scale *= 0.9;
  const cut = { width: room.width / scale, height: room.height / scale };
  const starts = (length: number, size: number) => {
    const step = size - OVERLAP;
    return Array.from({ length: Math.max(1, Math.ceil((length - OVERLAP) / step)) }, (_, i) => Math.min(i * step, Math.max(0, length - size)));
  };
  return starts(graph.height, cut.height).flatMap((y) =>
    starts(graph.width, cut.width).map((x) => ({ x, y, width: Math.min(cut.width, graph.width), height: Math.min(cut.height, graph.height) })),
  );
}
