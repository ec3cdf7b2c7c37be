import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { COLOURS, LEGEND } from '../../../../src/features/ownership/drawing/drawing-style.ts';
import { layoutOwnershipGraph } from '../../../../src/features/ownership/drawing/layout-ownership-graph.ts';
import { ownershipGraphSvg, xmlText } from '../../../../src/features/ownership/drawing/ownership-graph-svg.ts';
import { answerFor, NAMES, structure, structureBody } from './structure.ts';

const { request, answer } = structure();
const layout = layoutOwnershipGraph(request, answer);
const svg = ownershipGraphSvg(layout);

type XmlNode = Record<string, unknown>;
const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', preserveOrder: true, trimValues: false }).parse(svg) as XmlNode[];

/** Every element of the parsed document, depth first, with its attributes and its own text. */
function elements(nodes: XmlNode[]): { tag: string; attributes: Record<string, string>; text: string; children: XmlNode[] }[] {
  return nodes.flatMap((node) => {
    const tag = Object.keys(node).find((key) => key !== ':@' && key !== '#text');
    if (!tag) return [];
    const children = node[tag] as XmlNode[];
    const text = children
      .filter((c) => '#text' in c)
      .map((c) => String(c['#text']))
      .join('');
    return [{ tag, attributes: (node[':@'] ?? {}) as Record<string, string>, text, children }, ...elements(children)];
  });
}
const all = elements(parsed);
const texts = all.filter((e) => e.tag === 'text').map((e) => decode(e.text));
/** fast-xml-parser leaves entities as written when asked to keep the order; XML's five are all the SVG uses. */
function decode(text: string): string {
  return text.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name] as string);
}
const group = (kind: string, predicate: (attributes: Record<string, string>) => boolean = () => true) =>
  all.filter((e) => e.tag === 'g' && e.attributes['@data-kind'] === kind && predicate(e.attributes));
const edgeGroup = (owner: string, owned: string) => {
  const [from, to] = [owner, owned].map((id) => layout.nodes.findIndex((n) => n.entity === id));
  const [found] = group('edge', (a) => a['@data-from'] === String(from) && a['@data-to'] === String(to));
  assert.ok(found, `${owner} → ${owned} is drawn`);
  return elements(found.children);
};

describe('the ownership graph as SVG', () => {
  test('is well-formed XML, an image with an accessible name and description, its viewBox the size of the layout', () => {
    assert.equal(XMLValidator.validate(svg), true);
    const root = all[0];
    assert.equal(root?.tag, 'svg');
    assert.equal(root?.attributes['@role'], 'img');
    assert.equal(root?.attributes['@viewBox'], `0 0 ${layout.width} ${layout.height}`);
    assert.equal(root?.attributes['@aria-labelledby'], 'ownership-graph-title ownership-graph-desc');
    const title = all.find((e) => e.attributes['@id'] === 'ownership-graph-title');
    assert.equal(decode(title?.text ?? ''), `Ownership of ${NAMES.target} on 2026-11-22`);
    const desc = all.find((e) => e.attributes['@id'] === 'ownership-graph-desc');
    assert.match(decode(desc?.text ?? ''), /^OFAC: blocked/);
  });

  test('escapes every name: markup, ampersands and quotes are text, and names in any script read back as given', () => {
    assert.doesNotMatch(svg, /<script/i);
    assert.match(svg, /&lt;script&gt;alert\(&#39;x&#39;\)/);
    assert.match(svg, /Delta Freight &amp; Logistics/);
    const shown = texts.join('\n');
    for (const name of [NAMES.holding, NAMES.sdnArabic, NAMES.entityList, NAMES.controller, NAMES.cycleB]) assert.ok(shown.includes(name), `${name} is shown`);
    assert.ok(shown.includes('Ivan') && shown.includes("<script>alert('x')</script>"), 'the name with markup is shown as text');
    const tooltips = all.filter((e) => e.tag === 'title').map((e) => decode(e.text));
    assert.ok(
      tooltips.some((t) => t.startsWith(NAMES.sdnPerson)),
      'the tooltip keeps the whole name',
    );
    const ids = group('party').map((g) => decode(g.attributes['@data-entity'] ?? ''));
    assert.deepEqual(ids.sort(), ['A1', 'A2', 'C', 'E', 'H', 'S1', 'S2', 'T', 'U']);
  });

  test('replaces what XML cannot carry, rather than writing a document that does not parse', () => {
    assert.equal(xmlText('a\u0001b\ud800c\udc00d'), 'a\ufffdb\ufffdc\ufffdd');
    assert.equal(xmlText('𝒜 & <b>'), '𝒜 &amp; &lt;b&gt;', 'a character outside the BMP is kept');
    const body = structureBody();
    (body.entities[1] as { name: string }).name = 'Broken \ud800 Holdings';
    const broken = ownershipGraphSvg(layoutOwnershipGraph(body, answerFor(body)));
    assert.equal(XMLValidator.validate(broken), true);
    assert.ok(broken.isWellFormed(), 'no lone surrogate is left');
    assert.match(broken, /Broken \ufffd Holdings/);
  });

  test('escapes ids in attributes too', () => {
    const odd = `H"<&>'`;
    const body = structureBody();
    body.entities = body.entities.map((e) => (e.id === 'H' ? { ...e, id: odd } : e));
    body.ownerships = body.ownerships.map((l) => ({ ...l, owner: l.owner === 'H' ? odd : l.owner, owned: l.owned === 'H' ? odd : l.owned }));
    const drawn = ownershipGraphSvg(layoutOwnershipGraph(body, answerFor(body)));
    assert.match(drawn, /data-entity="H&quot;&lt;&amp;&gt;&#39;"/);
    assert.equal(XMLValidator.validate(drawn), true);
  });

  test('is self-contained and needs no style: no script, no style element or attribute, no external reference', () => {
    assert.doesNotMatch(svg, /<style|\sstyle=|<script|<foreignObject|<image|<use/i);
    assert.doesNotMatch(svg.replace('xmlns="http://www.w3.org/2000/svg"', ''), /https?:|href=|url\(/i);
    assert.ok(
      all.every((e) => Object.keys(e.attributes).every((a) => !/^@on/i.test(a))),
      'no event handler attributes',
    );
  });

  test('draws the OFAC path solid in its colour, the BIS path hollow in its own, unknown stakes dashed and control dotted', () => {
    const strokes = (owner: string, owned: string) =>
      edgeGroup(owner, owned)
        .filter((e) => e.tag === 'polyline')
        .map((e) => [e.attributes['@stroke'], e.attributes['@stroke-dasharray'] ?? null]);
    assert.deepEqual(strokes('S2', 'H'), [[COLOURS.ofac, null]]);
    assert.deepEqual(strokes('E', 'H'), [
      [COLOURS.bis, null],
      [COLOURS.paper, null],
    ]);
    assert.deepEqual(
      strokes('S1', 'H').map(([colour]) => colour),
      [COLOURS.ofac, COLOURS.bis, COLOURS.paper],
    );
    assert.deepEqual(strokes('U', 'H'), [[COLOURS.edge, '6 4']]);
    assert.deepEqual(strokes('C', 'H'), [[COLOURS.edge, '2 3']]);
    assert.deepEqual(strokes('A1', 'A2'), [[COLOURS.cycle, null]]);

    const widths = (owner: string, owned: string) => edgeGroup(owner, owned).map((e) => Number(e.attributes['@stroke-width'] ?? 0));
    assert.ok(Math.max(...widths('S2', 'H')) >= 3 * Math.max(...widths('A2', 'H')), 'a deciding path is several times as thick as a plain stake');
    const [sdn] = group('party', (a) => a['@data-entity'] === 'S1');
    assert.equal(sdn?.attributes['@data-flags'], 'listed ofac-blocked bis-restricted ofac-path bis-path');
    const ringColours = elements(sdn?.children ?? []).flatMap((e) => (e.tag === 'rect' ? [e.attributes['@stroke'] ?? e.attributes['@fill']] : []));
    for (const colour of [COLOURS.listedFill, COLOURS.ofac, COLOURS.bis]) assert.ok(ringColours.includes(colour), `S1 shows ${colour}`);
  });

  test('shows the collapsed minority holders as one node with their count', () => {
    const [collapsed] = group('collapsed');
    assert.ok(collapsed);
    const lines = elements(collapsed.children)
      .filter((e) => e.tag === 'text')
      .map((e) => e.text);
    assert.equal(lines[0], '+300 entities');
    assert.ok(texts.includes('300 stakes'));
  });

  test('carries the legend and the count of what was drawn', () => {
    for (const entry of LEGEND) assert.ok(texts.includes(entry.label), `the legend says "${entry.label}"`);
    assert.equal(group('legend').length, LEGEND.length);
    assert.ok(texts.includes('9 of 309 parties drawn; 300 collapsed in 1 group.'));
  });
});
