/**
 * What the drawing tests check of a layout's geometry: nodes inside the drawing, no two nodes
 * overlapping, and no edge running through a node it does not join.
 */
import type { LayoutNode, OwnershipGraphLayout, Point } from '../../../../src/features/ownership/drawing/layout-types.ts';

type Box = Pick<LayoutNode, 'x' | 'y' | 'width' | 'height'>;

const inside = (p: Point, box: Box, by = 0) => p.x > box.x + by && p.x < box.x + box.width - by && p.y > box.y + by && p.y < box.y + box.height - by;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Each problem in words: empty when the layout is sound. */
export function geometryProblems(layout: OwnershipGraphLayout): string[] {
  const problems: string[] = [];
  const name = (i: number) => `${layout.nodes[i]?.entity ?? layout.nodes[i]?.name}`;
  layout.nodes.forEach((node, i) => {
    if (node.x < 0 || node.y < 0 || node.x + node.width > layout.width || node.y + node.height > layout.height)
      problems.push(`${name(i)} is outside the drawing`);
    for (let j = i + 1; j < layout.nodes.length; j++) if (overlap(node, layout.nodes[j] as Box)) problems.push(`${name(i)} overlaps ${name(j)}`);
  });
  layout.edges.forEach((edge) => {
    for (const p of edge.points)
      if (p.x < 0 || p.y < 0 || p.x > layout.width || p.y > layout.height) problems.push(`an edge of ${name(edge.from)} leaves the drawing`);
    // Every 2 units along each segment, the line must be outside every node but its two ends.
    for (let s = 0; s + 1 < edge.points.length; s++) {
      const [a, b] = [edge.points[s] as Point, edge.points[s + 1] as Point];
      const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 2);
      for (let k = 0; k <= steps; k++) {
        const p = { x: a.x + ((b.x - a.x) * k) / steps, y: a.y + ((b.y - a.y) * k) / steps };
        layout.nodes.forEach((node, i) => {
          if (i !== edge.from && i !== edge.to && inside(p, node, 1)) problems.push(`the edge ${name(edge.from)} → ${name(edge.to)} runs through ${name(i)}`);
        });
      }
    }
  });
  return [...new Set(problems)];
}
