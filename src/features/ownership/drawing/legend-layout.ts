/**
 * Where the legend's entries go: a grid below the graph, as many columns as the drawing's width
 * holds, every entry in a column as wide as the widest.
 */
import { LEGEND, SIZES, TEXT } from './drawing-style.ts';
import type { OwnershipGraphLayout } from './layout-types.ts';
import { textWidth } from './text-measure.ts';

export function layoutLegend(top: number, width: number): OwnershipGraphLayout['legend'] {
  const { legendSample: sample, legendGap: gap, margin } = SIZES;
  const widest = Math.max(...LEGEND.map((entry) => textWidth(entry.label, TEXT.legend.size, TEXT.legend.bold)));
  const column = Math.ceil(sample.width + gap.text + widest + gap.x);
  const columns = Math.max(1, Math.min(LEGEND.length, Math.floor((width - 2 * margin + gap.x) / column)));
  const rows = Math.ceil(LEGEND.length / columns);
  const entries = LEGEND.map((entry, i) => ({
    key: entry.key,
    label: entry.label,
    x: margin + (i % columns) * column,
    y: top + Math.floor(i / columns) * (sample.height + gap.y),
  }));
  return { x: margin, y: top, width: columns * column - gap.x, height: rows * (sample.height + gap.y) - gap.y, entries };
}
