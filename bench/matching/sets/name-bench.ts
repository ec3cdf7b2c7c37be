/**
 * Set (a): nomenklatura's name_bench, 826 hand-labelled name pairs, against the frozen logic-v2
 * scores OpenSanctions published (the yente baseline, F1 0.790 at 0.70). The reference figures
 * are computed here from the frozen file on the same rows, so the comparison is like for like:
 * the 812 pairs the frozen file scores, overall and per schema, plus all 826 for our matchers.
 * Each pair is one case: name1 is screened against an index holding only name2.
 */
import type { SubjectKind } from '../../../src/screening/match-types.ts';
import type { EntityType } from '../../../src/screening/model.ts';
import { readCsvRecords } from '../eval-data.ts';
import { entityNamed, type Matcher, pairScore } from '../matchers.ts';
import { bestF1 } from '../metrics.ts';
import { collect, type SetResult, Tally } from '../tally.ts';

const SET = 'a. name_bench';
const LOGIC_V2_THRESHOLD = 0.7;
const KINDS: Record<string, { kind: SubjectKind; type: EntityType }> = {
  Person: { kind: 'person', type: 'person' },
  Company: { kind: 'organization', type: 'organization' },
  Organization: { kind: 'organization', type: 'organization' },
  LegalEntity: { kind: 'organization', type: 'organization' },
  Vessel: { kind: 'any', type: 'vessel' },
};

type Case = { key: string; schema: string; name1: string; name2: string; isMatch: boolean; reference?: number };

export function readNameBench(dataDir: string): Case[] {
  const dir = 'eval/nomenklatura_name_bench';
  // Not the case group: the frozen run files some company pairs under another group name.
  const keyOf = (r: Record<string, string>) => [r.schema, r.name1, r.name2, r.is_match].join('|');
  const frozen = new Map(readCsvRecords(dataDir, `${dir}/logicv2-frozen.csv`).map((r) => [keyOf(r), Number(r.score)]));
  return readCsvRecords(dataDir, `${dir}/cases.csv`).map((r) => ({
    key: keyOf(r),
    schema: r.schema as string,
    name1: r.name1 as string,
    name2: r.name2 as string,
    isMatch: r.is_match === 'true',
    ...(frozen.has(keyOf(r)) && { reference: frozen.get(keyOf(r)) }),
  }));
}

export function runNameBench(dataDir: string, matchers: readonly Matcher[], threshold: number | undefined): SetResult {
  const cases = readNameBench(dataDir);
  const referenced = cases.filter((c) => c.reference !== undefined);
  const schemas = [...new Set(cases.map((c) => c.schema))];
  const tallies: Tally[] = [];
  const headline: Tally[] = [];
  const notes: string[] = [];

  const tallyBy = (matcher: string, cutoff: number, rows: Case[], score: (c: Case) => number, allRowsVariant?: string) => {
    const variants = [
      [allRowsVariant ?? `all schemas (${rows.length} reference rows)`, rows] as const,
      ...schemas.map((s) => [s, rows.filter((c) => c.schema === s)] as const),
    ];
    for (const [variant, subset] of variants) {
      const tally = new Tally(SET, variant, matcher, cutoff);
      for (const c of subset) {
        const value = score(c);
        tally.add(c.key, c.isMatch, value >= cutoff, value, `${c.schema}: ${c.name1} ↔ ${c.name2}`);
      }
      tallies.push(tally);
      if (subset === rows) headline.push(tally);
    }
    const best = bestF1(rows.map((c) => ({ score: score(c), isMatch: c.isMatch })));
    notes.push(`${SET}: ${matcher} best F1 over thresholds ${best.f1.toFixed(3)} at ${best.threshold.toFixed(3)} (${rows.length} rows)`);
  };

  tallyBy('logic-v2 (yente, frozen)', LOGIC_V2_THRESHOLD, referenced, (c) => c.reference as number);
  for (const matcher of matchers) {
    const scores = new Map(cases.map((c) => [c.key, scorePair(matcher, c)]));
    const cutoff = threshold ?? matcher.defaultThreshold;
    tallyBy(matcher.label, cutoff, referenced, (c) => scores.get(c.key) as number);
    const everyRow = new Tally(SET, `all ${cases.length} rows`, matcher.label, cutoff);
    for (const c of cases)
      everyRow.add(c.key, c.isMatch, (scores.get(c.key) as number) >= cutoff, scores.get(c.key) as number, `${c.schema}: ${c.name1} ↔ ${c.name2}`);
    tallies.push(everyRow);
  }
  notes.push(`${SET}: ${cases.length - referenced.length} of ${cases.length} cases have no frozen logic-v2 score; the reference rows exclude them`);
  return collect(tallies, notes, headline);
}

function scorePair(matcher: Matcher, c: Case): number {
  const { kind, type } = KINDS[c.schema] ?? { kind: 'any', type: 'organization' };
  return pairScore(matcher, c.name1, kind, entityNamed(c.name2, type));
}
