/**
 * What a node says and how big it is: the name, what the party is and where, its status in words,
 * and the lists it is on with their programs; for a collapsed group, how many parties it stands
 * for. Lines too wide for the widest node are cut with an ellipsis (the SVG's tooltip keeps the
 * whole text). Both renderers place the lines with lineTops, so they sit alike in both.
 */
import type { DrawnNode } from './collapse.ts';
import { barsRoom, LINE_HEIGHT, type NodeStyle, SIZES, TEXT } from './drawing-style.ts';
import type { PartyFacts } from './graph-facts.ts';
import type { LabelLine, ListedMark } from './layout-types.ts';
import { fitText, textWidth, wrapText } from './text-measure.ts';

/** Lists shown on a node; the rest are counted ("+2 more lists"). */
const MAX_MARK_LINES = 3;
/** A long name takes up to three lines before it is cut: the evidence PDF has no tooltip to show the rest. */
const NAME_LINES = 3;

export const markText = (mark: ListedMark) =>
  `${mark.list}${mark.programs.length > 0 ? ` ${mark.programs.join(', ')}` : ''}${mark.source === 'screening' ? ' (by screening)' : ''}`;

export function partyLines(party: PartyFacts): LabelLine[] {
  const lines: LabelLine[] = [
    { text: party.name, style: 'name' },
    { text: [party.flags.target ? 'TARGET' : '', party.type, party.country ?? ''].filter(Boolean).join(' · '), style: 'detail' },
  ];
  if (party.status.length > 0) lines.push({ text: party.status.join(' · '), style: 'status' });
  for (const mark of party.marks.slice(0, MAX_MARK_LINES)) lines.push({ text: markText(mark), style: 'mark' });
  const more = party.marks.length - MAX_MARK_LINES;
  if (more > 0) lines.push({ text: `+${more} more list${more === 1 ? '' : 's'}`, style: 'mark' });
  return lines;
}

export function groupName(members: readonly number[], parties: readonly PartyFacts[]): string {
  const persons = members.filter((v) => parties[v]?.type === 'person').length;
  const noun = persons === 0 ? 'entities' : persons === members.length ? 'persons' : 'parties';
  return `+${members.length} ${noun}`;
}

export function groupLines(node: Extract<DrawnNode, { kind: 'collapsed' }>, parties: readonly PartyFacts[]): LabelLine[] {
  const where = node.side === 'owners' ? 'owners' : node.side === 'owned' ? 'holdings' : 'not linked to the target';
  return [
    { text: groupName(node.members, parties), style: 'name' },
    { text: `${where}, collapsed:`, style: 'detail' },
    { text: 'no bearing on the verdict', style: 'detail' },
  ];
}

/** The node's lines cut to fit, and its size. */
export function sizeNode(lines: LabelLine[], style: NodeStyle): { lines: LabelLine[]; width: number; height: number } {
  const room = barsRoom(style);
  const inner = SIZES.nodeMaxWidth - 2 * (SIZES.nodePadX + room);
  const fitted = lines.flatMap((line) => {
    const text = TEXT[line.style];
    const texts = line.style === 'name' ? wrapText(line.text, inner, text.size, text.bold, NAME_LINES) : [fitText(line.text, inner, text.size, text.bold)];
    return texts.map((text) => ({ ...line, text }));
  });
  const widest = Math.max(...fitted.map((line) => textWidth(line.text, TEXT[line.style].size, TEXT[line.style].bold)));
  const width = Math.min(SIZES.nodeMaxWidth, Math.max(SIZES.nodeMinWidth, Math.ceil(widest + 2 * (SIZES.nodePadX + room))));
  const height = Math.ceil(fitted.reduce((sum, line) => sum + TEXT[line.style].size * LINE_HEIGHT, 0) + 2 * SIZES.nodePadY);
  return { lines: fitted, width, height };
}

/** The top of each line of a node whose box starts at `y`. */
export function lineTops(lines: readonly LabelLine[], y: number): number[] {
  let top = y + SIZES.nodePadY;
  return lines.map((line) => {
    const at = top;
    top += TEXT[line.style].size * LINE_HEIGHT;
    return at;
  });
}
