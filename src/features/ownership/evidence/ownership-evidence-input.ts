/**
 * What the ownership evidence PDF is rendered from: a stored ownership check (the graph as
 * submitted, the answer as POST /ownership/check returned it, who asked, when, and the record's
 * hash) and its organization. The renderer reads nothing else, so the same record always gives
 * the same document.
 */
import type { Static } from 'typebox';
import type { EvidenceRenderOptions } from '../../../evidence/evidence-input.ts';
import type { OwnershipCheckBody } from '../schemas.ts';
import type { OwnershipCheckResult } from '../verdict-schema.ts';

export type OwnershipCheckStatus = 'blocked' | 'restricted' | 'indeterminate' | 'clear';

/** The stored check as the evidence reads it: the fields of the stored record it needs, by their stored names. */
export type EvidenceOwnershipCheck = {
  id: string;
  checked_at: string;
  /** blocked: OFAC blocked; restricted: BIS restricted, not blocked; indeterminate: either rule not determinate. */
  status: OwnershipCheckStatus;
  asked_by: { type: 'api_key' | 'user'; id: string };
  /** The determination this one re-evaluated. */
  supersedes: string | null;
  record_sha256: string;
  request: Static<typeof OwnershipCheckBody>;
  answer: Static<typeof OwnershipCheckResult>;
};

export type OwnershipEvidenceInput = { organization: { id: string; name: string }; check: EvidenceOwnershipCheck };

export type GraphBox = { x: number; y: number; width: number; height: number };

export type OwnershipEvidenceOptions = EvidenceRenderOptions & {
  /**
   * Draws the ownership graph inside `box` on the current page (points, origin top left). Without
   * it the section says where the graph is drawn instead.
   */
  drawGraph?: (doc: PDFKit.PDFDocument, box: GraphBox) => void;
};

export type OwnershipAnswer = EvidenceOwnershipCheck['answer'];

/** What both rules' answers report alike: the aggregate, its contributors and the paths. */
export type RuleAnswer = Omit<OwnershipAnswer['ofac'], 'blocked'>;
