import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { layoutOwnershipGraph } from '../../../../src/features/ownership/drawing/layout-ownership-graph.ts';
import type { LayoutEdge, LayoutNode, OwnershipGraphLayout } from '../../../../src/features/ownership/drawing/layout-types.ts';
import { geometryProblems } from './geometry.ts';
import { answerFor, MINORITY_HOLDERS, minorityId, NAMES, structure, structureBody, wideStructureBody } from './structure.ts';

const nodeOf = (layout: OwnershipGraphLayout, entity: string) => {
  const node = layout.nodes.find((n) => n.entity === entity);
  assert.ok(node, `${entity} is drawn`);
  return node;
};
const edgesBetween = (layout: OwnershipGraphLayout, owner: string, owned: string): LayoutEdge[] =>
  layout.edges.filter((e) => layout.nodes[e.from]?.entity === owner && layout.nodes[e.to]?.entity === owned);
const edgeOf = (layout: OwnershipGraphLayout, owner: string, owned: string) => {
  const [edge, ...more] = edgesBetween(layout, owner, owned);
  assert.ok(edge, `${owner} → ${owned} is drawn`);
  assert.equal(more.length, 0, `${owner} → ${owned} is drawn once`);
  return edge;
};
const lineTexts = (node: LayoutNode) => node.lines.map((l) => l.text);

describe('the ownership graph laid out', () => {
  const { request, answer } = structure();
  const layout = layoutOwnershipGraph(request, answer);

  test('highlights the paths that decided each rule: OFAC through both SDN owners, BIS through the SDN and the Entity List owner', () => {
    assert.equal(answer.ofac.blocked, true);
    assert.equal(answer.bis.restricted, true);
    for (const id of ['S1', 'S2', 'H', 'T']) assert.equal(nodeOf(layout, id).flags.ofacPath, true, `${id} is on an OFAC path`);
    for (const id of ['S1', 'E', 'H', 'T']) assert.equal(nodeOf(layout, id).flags.bisPath, true, `${id} is on a BIS path`);
    assert.equal(nodeOf(layout, 'E').flags.ofacPath, false);
    assert.equal(nodeOf(layout, 'S2').flags.bisPath, false);

    const onPaths = (owner: string, owned: string) => {
      const { ofacPath, bisPath } = edgeOf(layout, owner, owned).flags;
      return { ofacPath, bisPath };
    };
    assert.deepEqual(onPaths('S1', 'H'), { ofacPath: true, bisPath: true });
    assert.deepEqual(onPaths('S2', 'H'), { ofacPath: true, bisPath: false });
    assert.deepEqual(onPaths('E', 'H'), { ofacPath: false, bisPath: true });
    assert.deepEqual(onPaths('H', 'T'), { ofacPath: true, bisPath: true });
    assert.deepEqual(onPaths('A2', 'H'), { ofacPath: false, bisPath: false }, 'a 5% stake by an unlisted owner decides nothing');
    const highlighted = layout.edges.filter((e) => e.flags.ofacPath || e.flags.bisPath).length;
    assert.equal(highlighted, 4, 'no other edge is highlighted');
  });

  test('marks listed parties with their lists and programs, and says each status in words', () => {
    const sdn = nodeOf(layout, 'S1');
    assert.deepEqual(sdn.marks, [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'], source: 'given' }]);
    assert.equal(sdn.flags.listed, true);
    assert.equal(sdn.type, 'person');
    assert.ok(lineTexts(sdn).includes('OFAC_SDN RUSSIA-EO14024'));
    assert.ok(lineTexts(nodeOf(layout, 'E')).includes('BIS_EL'));
    assert.ok(lineTexts(nodeOf(layout, 'S2')).includes('OFAC blocked'), 'an SDN under IRAN is blocked, and not restricted by BIS');

    const target = nodeOf(layout, 'T');
    assert.deepEqual({ target: target.flags.target, ofac: target.flags.ofacBlocked, bis: target.flags.bisRestricted }, { target: true, ofac: true, bis: true });
    assert.ok(lineTexts(target).includes('TARGET · entity · AE'));
    assert.ok(lineTexts(target).includes('OFAC blocked · BIS restricted'));
    assert.equal(nodeOf(layout, 'H').flags.listed, false, 'covered through ownership, not listed');
    assert.ok(lineTexts(nodeOf(layout, 'H')).includes(NAMES.holding), 'names are kept as given');
  });

  test('labels stakes as given, unknown ones "?", other links by their kind, and marks a cycle on both its links', () => {
    assert.equal(edgeOf(layout, 'S1', 'H').label, '30%');
    assert.equal(edgeOf(layout, 'S2', 'H').label, '25%');
    assert.equal(edgeOf(layout, 'H', 'T').label, '100%');

    const unknown = edgeOf(layout, 'U', 'H');
    assert.equal(unknown.label, '?');
    assert.equal(unknown.flags.unknownStake, true);
    const control = edgeOf(layout, 'C', 'H');
    assert.equal(control.label, 'control');
    assert.deepEqual({ other: control.flags.otherKind, unknown: control.flags.unknownStake }, { other: true, unknown: false });

    const cycle = [edgeOf(layout, 'A1', 'A2'), edgeOf(layout, 'A2', 'A1')];
    assert.deepEqual(
      cycle.map((e) => [e.label, e.flags.cycle]),
      [
        ['40% ↻', true],
        ['10% ↻', true],
      ],
    );
    assert.equal(cycle.filter((e) => e.flags.upward).length, 1, 'one link of the cycle is cut for the layering, and still drawn');
    assert.equal(nodeOf(layout, 'A1').flags.cycle && nodeOf(layout, 'A2').flags.cycle, true);
    assert.equal(layout.edges.filter((e) => e.flags.cycle).length, 2, 'the stake out of the cycle (A2 → H) is no cycle link');
  });

  test('collapses the 300 minority holders into one node that counts them and holds their stakes', () => {
    const groups = layout.nodes.filter((n) => n.kind === 'collapsed');
    assert.equal(groups.length, 1);
    const group = groups[0] as LayoutNode;
    assert.equal(group.name, `+${MINORITY_HOLDERS} entities`);
    assert.deepEqual(
      group.members,
      Array.from({ length: MINORITY_HOLDERS }, (_, i) => minorityId(i + 1)),
    );
    assert.equal(group.entity, null);
    const stakes = layout.edges.filter((e) => layout.nodes[e.from] === group);
    assert.deepEqual(
      stakes.map((e) => [layout.nodes[e.to]?.entity, e.label, e.links]),
      [['H', '300 stakes', 300]],
    );
    assert.deepEqual(layout.counts, { parties: 309, drawn: 9, collapsed: 300, groups: 1 });
    assert.match(layout.note.text, /9 of 309 parties drawn; 300 collapsed in 1 group\./);
    assert.equal(
      layout.nodes.filter((n) => n.kind === 'party').length,
      9,
      'every party that bears on the verdict is drawn as itself, minority holders are not',
    );
  });

  test('puts the target at the bottom and every owner above what it owns, the cut cycle link excepted', () => {
    assert.equal(nodeOf(layout, 'T').layer, 0);
    assert.equal(nodeOf(layout, 'H').layer, 1);
    assert.equal(nodeOf(layout, 'S1').layer, 2);
    for (const node of layout.nodes) assert.ok(node.y <= nodeOf(layout, 'T').y, `${node.name} is not below the target`);
    for (const edge of layout.edges) {
      const [owner, owned] = [layout.nodes[edge.from] as LayoutNode, layout.nodes[edge.to] as LayoutNode];
      const [upper, lower] = edge.flags.upward ? [owned, owner] : [owner, owned];
      assert.ok(upper.y + upper.height < lower.y, `${owner.name} → ${owned.name} runs between rows`);
      assert.deepEqual(edge.points.at(-1)?.y, edge.flags.upward ? owned.y + owned.height : owned.y, 'the arrow ends on the owned party');
    }
  });

  test('keeps every node and edge inside the drawing, no two nodes overlapping and no edge through a node', () => {
    assert.deepEqual(geometryProblems(layout), []);
    const wide = wideStructureBody(140);
    const big = layoutOwnershipGraph(wide, answerFor(wide));
    assert.ok(big.nodes.length > 60, `a wide structure draws many nodes (${big.nodes.length})`);
    assert.ok(
      big.edges.some((e) => e.points.length > 4),
      'some edges pass through rows',
    );
    assert.deepEqual(geometryProblems(big), []);
  });

  test('past the node budget, collapses what bears least and keeps the deciding structure', () => {
    const small = layoutOwnershipGraph(request, answer, { maxNodes: 6 });
    assert.ok(small.nodes.length <= 6 + 3, `${small.nodes.length} nodes`);
    for (const id of ['T', 'H', 'S1', 'S2', 'E']) nodeOf(small, id);
    for (const id of ['A1', 'A2', 'U', 'C'])
      assert.equal(
        small.nodes.find((n) => n.entity === id),
        undefined,
        `${id} is collapsed`,
      );
    assert.equal(small.counts.drawn + small.counts.collapsed, small.counts.parties);
    assert.equal(
      small.nodes.reduce((sum, n) => sum + n.members.length, 0),
      small.counts.collapsed,
    );
    assert.deepEqual(geometryProblems(small), []);
  });

  test('marks a stake outside its dates as not in effect, with the date that leaves it out', () => {
    const body = structureBody();
    body.ownerships.push({ owner: 'S1', owned: 'T', percent: 10, end_date: '2020-01-31' });
    const dated = layoutOwnershipGraph(body, answerFor(body));
    const edge = edgeOf(dated, 'S1', 'T');
    assert.equal(edge.label, '10% until 2020-01-31');
    assert.deepEqual({ out: edge.flags.notInEffect, ofac: edge.flags.ofacPath }, { out: true, ofac: false });
  });

  test('marks designations that screening found as such', () => {
    const found = structure();
    const entry = {
      id: 'U',
      ofac_blocked: true,
      ofac_determinate: true,
      bis_restricted: true,
      bis_determinate: true,
      designations: [{ list: 'OFAC_SDN' as const, programs: ['SDGT'], source: 'screening' as const, entry_id: '36011' }],
    };
    found.answer.entities.push(entry);
    const nominee = nodeOf(layoutOwnershipGraph(found.request, found.answer), 'U');
    assert.equal(nominee.flags.listed, true);
    assert.ok(lineTexts(nominee).includes('OFAC_SDN SDGT (by screening)'));
  });

  test('names the picture and describes the verdicts and paths in words', () => {
    assert.equal(layout.title, `Ownership of ${NAMES.target} on 2026-11-22`);
    assert.match(layout.description, /^OFAC: blocked; covered owners hold 100%\. BIS \(Affiliates Rule in force\): restricted/);
    assert.match(layout.description, /S1 \[OFAC_SDN\] —30%→ H/);
    assert.match(layout.description, /9 of 309 parties drawn, 300 collapsed/);
  });

  test('is the same for the same check', () => {
    assert.deepEqual(layoutOwnershipGraph(request, answer), layout);
  });
});
