/**
 * What the ownership evidence PDF is rendered from: a stored ownership check (the graph as
 * submitted, the answer as POST /ownership/check returned it, who asked, when, and the record's
 * hash) and its organization. The renderer reads nothing else, so the same record always gives
 * the same document.
 */
import type { EvidenceRenderOptions } from '../../../evidence/evidence-input.ts';
import type { OwnershipCheckRecord } from '../check-record.ts';

/** The stored determination as the evidence reads it: its record and the record's hash. */
export type EvidenceOwnershipCheck = OwnershipCheckRecord & { record_sha256: string };

export type OwnershipEvidenceInput = { organization: { id: string; name: string }; check: EvidenceOwnershipCheck };

export type GraphBox = { x: number; y: number; width: number; height: number };

/** The ownership graph as a drawing the evidence places: its own size, and how to draw it, whole or a part. */
export type GraphDrawing = {
  /** The drawing's size in its own units (what `region` is measured in). */
  width: number;
  height: number;
  /** Draws the whole drawing, or only `region` of it, inside `box` on the current page (points, origin top left), scaled down to fit, never up. */
  draw: (doc: PDFKit.PDFDocument, box: GraphBox, region?: GraphBox) => void;
};

export type OwnershipEvidenceOptions = EvidenceRenderOptions & {
  /** The ownership graph. Without it the section says where the graph is drawn instead. */
  graph?: GraphDrawing;
};

export type OwnershipAnswer = EvidenceOwnershipCheck['answer'];

/** What both rules' answers report alike: the aggregate, its contributors and the paths. */
export type RuleAnswer = Omit<OwnershipAnswer['ofac'], 'blocked'>;
