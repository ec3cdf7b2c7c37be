/**
 * The drawn ownership graph as one self-contained SVG document for the console: no script, no
 * style element or attribute (the console's Content-Security-Policy allows neither), nothing
 * fetched; colours, dashes and fonts are presentation attributes. Every name is the caller's
 * text: it is escaped, and characters XML cannot carry become U+FFFD. The image has an accessible
 * name and description, each node and edge a tooltip (<title>) with its full text, and data-*
 * attributes saying what each is (for the console's tests and scripts of the reader's own).
 */
import { ASCENT, FONT_FAMILY, type Stroke } from './drawing-style.ts';
import { type Figure, figures, type Shape } from './figures.ts';
import type { EdgeFlags, LayoutEdge, LayoutNode, NodeFlags, OwnershipGraphLayout } from './layout-types.ts';
import { markText } from './node-labels.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** What XML 1.0 cannot hold: control characters but tab and line breaks, lone surrogates, U+FFFE and U+FFFF. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const xmlText = (text: string) => text.replace(NOT_XML, '\ufffd').replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** Two decimals at most, and no "-0". */
const num = (value: number) => String(Math.round(value * 100) / 100 + 0);

const NODE_FLAG_NAMES: Record<keyof NodeFlags, string> = {
  target: 'target',
  listed: 'listed',
  ofacBlocked: 'ofac-blocked',
  bisRestricted: 'bis-restricted',
  undetermined: 'undetermined',
  ofacPath: 'ofac-path',
  bisPath: 'bis-path',
  cycle: 'cycle',
};
const EDGE_FLAG_NAMES: Record<keyof EdgeFlags, string> = {
  ofacPath: 'ofac-path',
  bisPath: 'bis-path',
  unknownStake: 'unknown-stake',
  otherKind: 'other-kind',
  cycle: 'cycle',
  notInEffect: 'not-in-effect',
  upward: 'upward',
};
const flagList = <F extends object>(flags: F, names: Record<keyof F, string>) =>
  (Object.keys(names) as (keyof F)[])
    .filter((key) => flags[key])
    .map((key) => names[key])
    .join(' ');

const strokeAttributes = (stroke: Stroke) =>
  `stroke="${stroke.colour}" stroke-width="${num(stroke.width)}"${stroke.dash ? ` stroke-dasharray="${stroke.dash.map(num).join(' ')}"` : ''}`;

function shapeSvg(shape: Shape): string {
  switch (shape.kind) {
    case 'rect': {
      const paint = `fill="${shape.fill ?? 'none'}"${shape.stroke ? ` ${strokeAttributes(shape.stroke)}` : ''}`;
      const corner = shape.radius > 0 ? ` rx="${num(shape.radius)}"` : '';
      return `<rect x="${num(shape.x)}" y="${num(shape.y)}" width="${num(shape.width)}" height="${num(shape.height)}"${corner} ${paint}/>`;
    }
    case 'line':
      return `<polyline points="${shape.points.map((p) => `${num(p.x)},${num(p.y)}`).join(' ')}" fill="none" ${strokeAttributes(shape.stroke)} stroke-linejoin="round"/>`;
    case 'polygon':
      return `<polygon points="${shape.points.map((p) => `${num(p.x)},${num(p.y)}`).join(' ')}" fill="${shape.fill}"/>`;
    case 'text': {
      const { style } = shape;
      const baseline = shape.top + ASCENT * style.size;
      const weight = style.bold ? ' font-weight="bold"' : '';
      return `<text x="${num(shape.x)}" y="${num(baseline)}" text-anchor="${shape.anchor}" font-size="${num(style.size)}"${weight} fill="${style.colour}">${xmlText(shape.text)}</text>`;
    }
  }
}

function nodeTooltip(node: LayoutNode): string {
  if (node.kind === 'collapsed') {
    const sample = node.members.slice(0, 20).join(', ');
    return `${node.name} collapsed, bearing on neither verdict: ${sample}${node.members.length > 20 ? ', …' : ''}`;
  }
  const lists = node.marks.map(markText).join('; ');
  return [node.name, `id ${node.entity}`, node.type, node.country, lists].filter(Boolean).join(' · ');
}

const edgeTooltip = (layout: OwnershipGraphLayout, edge: LayoutEdge) => `${layout.nodes[edge.from]?.name} → ${layout.nodes[edge.to]?.name}: ${edge.label}`;

function figureSvg(layout: OwnershipGraphLayout, figure: Figure): string {
  const body = figure.shapes.map(shapeSvg).join('');
  if (figure.role === 'node') {
    const node = layout.nodes[figure.index] as LayoutNode;
    const entity = node.entity === null ? '' : ` data-entity="${xmlText(node.entity)}"`;
    const attributes = `data-kind="${node.kind}"${entity} data-flags="${flagList(node.flags, NODE_FLAG_NAMES)}"`;
    return `<g ${attributes}><title>${xmlText(nodeTooltip(node))}</title>${body}</g>`;
  }
  if (figure.role === 'edge') {
    const edge = layout.edges[figure.index] as LayoutEdge;
    return `<g data-kind="edge" data-from="${edge.from}" data-to="${edge.to}" data-flags="${flagList(edge.flags, EDGE_FLAG_NAMES)}"><title>${xmlText(edgeTooltip(layout, edge))}</title>${body}</g>`;
  }
  return `<g data-kind="${figure.role}">${body}</g>`;
}

export function ownershipGraphSvg(layout: OwnershipGraphLayout): string {
  const { width, height } = layout;
  const size = `viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}"`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" ${size} role="img" aria-labelledby="ownership-graph-title ownership-graph-desc" font-family="${FONT_FAMILY}">`,
    `<title id="ownership-graph-title">${xmlText(layout.title)}</title>`,
    `<desc id="ownership-graph-desc">${xmlText(layout.description)}</desc>`,
    `<rect width="${num(width)}" height="${num(height)}" fill="#ffffff"/>`,
    ...figures(layout).map((figure) => figureSvg(layout, figure)),
    '</svg>',
  ].join('\n');
}
