/**
 * The ownership graph as drawn: plain data, computed once by layoutOwnershipGraph and read by both
 * renderers (SVG for the console, pdfkit for the evidence PDF), so the two never place anything
 * differently. Coordinates are in drawing units (an SVG pixel, scaled to fit in the PDF), y down.
 */
import type { Static } from 'typebox';
import type { OwnershipCheckBody } from '../schemas.ts';
import type { OwnershipCheckResult } from '../verdict-schema.ts';

/** What the drawing reads of a stored check's request: the graph as submitted. */
export type DrawnRequest = Pick<Static<typeof OwnershipCheckBody>, 'target' | 'entities' | 'ownerships'>;
/** What the drawing reads of its answer: the date, both verdicts with their paths, the parties' statuses, the warnings. */
export type DrawnAnswer = Pick<Static<typeof OwnershipCheckResult>, 'as_of' | 'ofac' | 'bis' | 'entities' | 'warnings'>;

export type Point = { x: number; y: number };

/** A list a party is on, given in the request or found by screening its name. */
export type ListedMark = { list: string; programs: string[]; source: 'given' | 'screening' };

export type NodeFlags = {
  target: boolean;
  /** On any list (given or found by screening), counted by the rules or not. */
  listed: boolean;
  /** Blocked under OFAC: listed, or covered through ownership. */
  ofacBlocked: boolean;
  /** Restricted under BIS: listed, or covered through ownership while the Affiliates Rule is in force. */
  bisRestricted: boolean;
  /** A rule's answer for this party depends on stakes of unknown size. */
  undetermined: boolean;
  /** On a path the answer gives for the OFAC (BIS) verdict. */
  ofacPath: boolean;
  bisPath: boolean;
  /** In an ownership cycle. */
  cycle: boolean;
};

/** One line of a node's label; its style decides font, size and colour (drawing-style.ts). */
export type LabelLine = { text: string; style: 'name' | 'detail' | 'status' | 'mark' };

export type LayoutNode = {
  /** The party's id in the request; null for a collapsed group. */
  entity: string | null;
  kind: 'party' | 'collapsed';
  /** The party's name, or its id when it has none; for a group, its "+k entities" line. */
  name: string;
  type: 'person' | 'entity' | null;
  country: string | null;
  marks: ListedMark[];
  flags: NodeFlags;
  /** For a collapsed group: the ids of the parties it stands for, in request order. */
  members: string[];
  lines: LabelLine[];
  /** 0 is the bottom row (the target's, unless the target owns others); owners sit one row above what they own. */
  layer: number;
  /** Top-left corner and size. */
  x: number;
  y: number;
  width: number;
  height: number;
};

export type EdgeFlags = {
  /** A hop of a path the answer gives for the OFAC (BIS) verdict. */
  ofacPath: boolean;
  bisPath: boolean;
  /** The stake's size is unknown (percent null). */
  unknownStake: boolean;
  /** A relationship that is not ownership (control, director, …): never counted. */
  otherKind: boolean;
  /** Both ends in the same ownership cycle. */
  cycle: boolean;
  /** Its start_date or end_date leaves out the answer's as_of: the evaluation did not use it. */
  notInEffect: boolean;
  /** Drawn upwards: a cycle had to be cut to put owners above what they own, and this link was cut. */
  upward: boolean;
};

export type LayoutEdge = {
  /** Indices in `nodes`: the owner (or controller) and the party it holds a stake in. */
  from: number;
  to: number;
  /** "30%", "?" for an unknown stake, the kind for other links, "12 stakes" for a collapsed group's links. */
  label: string;
  /** How many of the request's links it stands for (more than one only to or from a collapsed group). */
  links: number;
  flags: EdgeFlags;
  /** From the owner to the owned party, ending on its border; the arrow head is drawn at the last point. */
  points: Point[];
  /** The centre of the label, on the line. */
  labelAt: Point;
};

export type LegendEntry = {
  key: LegendKey;
  label: string;
  /** Top-left corner of the entry's sample; its text follows on the right. */
  x: number;
  y: number;
};

export type LegendKey =
  | 'target'
  | 'listed'
  | 'ofac-blocked'
  | 'bis-restricted'
  | 'ofac-path'
  | 'bis-path'
  | 'unknown-stake'
  | 'other-kind'
  | 'cycle'
  | 'not-in-effect'
  | 'collapsed'
  | 'person';

export type OwnershipGraphLayout = {
  target: string;
  as_of: string;
  /** For the drawing's accessible name and description. */
  title: string;
  description: string;
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  legend: { x: number; y: number; width: number; height: number; entries: LegendEntry[] };
  /** A line under the legend: how many parties are drawn and how many collapsed. */
  note: { text: string; x: number; y: number };
  /** Parties in the request, drawn as nodes of their own, and standing in collapsed groups. */
  counts: { parties: number; drawn: number; collapsed: number; groups: number };
  width: number;
  height: number;
};

export type LayoutOptions = {
  /**
   * The most nodes drawn (parties and collapsed groups). Past it, parties that bear on the verdict
   * least are collapsed first; the target and the parties on the deciding paths are always drawn.
   */
  maxNodes?: number;
};

export const DEFAULT_MAX_NODES = 150;
