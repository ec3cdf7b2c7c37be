import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bestPairsJaroWinkler, customJaroWinkler, jaroWinkler } from '../../bench/matching/baselines/watchman-jaro-winkler.ts';
import { alertsPerThousand, bestF1, type Confusion, f1, precision, recall } from '../../bench/matching/metrics.ts';
import { commaInvert, dropMiddle, typo } from '../../bench/matching/perturb.ts';
import { partOf, stableHash } from '../../bench/matching/split.ts';

describe('evaluation metrics', () => {
  const confusion: Confusion = { tp: 8, fp: 2, fn: 4, tn: 998 };

  test('precision, recall and F1 from confusion counts', () => {
    assert.equal(precision(confusion), 0.8);
    assert.equal(recall(confusion), 8 / 12);
    assert.ok(Math.abs((f1(confusion) as number) - (2 * 0.8 * (8 / 12)) / (0.8 + 8 / 12)) < 1e-12);
  });

  test('alerts per 1,000 clean subjects count false positives over all negatives', () => {
    assert.equal(alertsPerThousand(confusion), 2);
    assert.equal(alertsPerThousand({ tp: 5, fp: 0, fn: 0, tn: 0 }), undefined);
  });

  test('a figure with an empty denominator is undefined, and F1 of nothing found is 0', () => {
    assert.equal(precision({ tp: 0, fp: 0, fn: 3, tn: 0 }), undefined);
    assert.equal(f1({ tp: 0, fp: 1, fn: 3, tn: 0 }), 0);
  });

  test('best F1 finds the threshold that separates the scores', () => {
    const scored = [
      { score: 0.9, isMatch: true },
      { score: 0.8, isMatch: true },
      { score: 0.7, isMatch: false },
      { score: 0.2, isMatch: false },
    ];
    assert.deepEqual(bestF1(scored), { f1: 1, threshold: 0.8 });
  });
});

describe('the split by entity', () => {
  test('is stable: the same key always lands in the same part', () => {
    assert.equal(stableHash('OFAC_SDN:36'), stableHash('OFAC_SDN:36'));
    assert.equal(stableHash(''), 0x811c9dc5);
    assert.equal(stableHash('a'), 0xe40c292c); // FNV-1a's published test vector
  });

  test('gives dev, tune and test about 60/20/20', () => {
    const counts = { dev: 0, tune: 0, test: 0 };
    for (let i = 0; i < 20000; i++) counts[partOf(`entity-${i}`)]++;
    assert.ok(Math.abs(counts.dev / 20000 - 0.6) < 0.02, JSON.stringify(counts));
    assert.ok(Math.abs(counts.tune / 20000 - 0.2) < 0.02, JSON.stringify(counts));
    assert.ok(Math.abs(counts.test / 20000 - 0.2) < 0.02, JSON.stringify(counts));
  });
});

describe('seeded perturbations', () => {
  test('are repeatable and change the name', () => {
    assert.equal(typo('GHULAM RASUL'), typo('GHULAM RASUL'));
    assert.notEqual(typo('GHULAM RASUL'), 'GHULAM RASUL');
    assert.equal(typo('AB CD'), undefined);
  });

  test('drop a middle name, never the first or last', () => {
    const dropped = dropMiddle('Ali Hassan Mohammed Rahimi') as string;
    assert.equal(dropped.split(' ').length, 3);
    assert.ok(dropped.startsWith('Ali ') && dropped.endsWith(' Rahimi'));
    assert.equal(dropMiddle('Ali Rahimi'), undefined);
  });

  test('comma inversion turns a listed name round and back', () => {
    assert.equal(commaInvert('AL-ZAWAHIRI, Ayman'), 'Ayman AL-ZAWAHIRI');
    assert.equal(commaInvert('Banco Nacional de Cuba'), 'Cuba, Banco Nacional de');
  });
});

describe('the watchman baseline', () => {
  test('Jaro-Winkler gives the textbook value for MARTHA/MARHTA', () => {
    assert.ok(Math.abs(jaroWinkler('martha', 'marhta') - 0.9611) < 1e-4);
  });

  test('penalises a different first letter and a large length difference', () => {
    assert.ok(customJaroWinkler('smith', 'smyth') > customJaroWinkler('smith', 'xmith'));
    assert.ok(customJaroWinkler('john', 'johnathan') < jaroWinkler('john', 'johnathan'));
  });

  test('John Doe matches John Doe better than John Bartholomew Doe, and identical names score 1', () => {
    assert.equal(bestPairsJaroWinkler(['john', 'doe'], ['john', 'doe']), 1);
    const longer = bestPairsJaroWinkler(['john', 'doe'], ['john', 'bartholomew', 'doe']);
    assert.ok(longer < 1 && longer > 0.85, String(longer));
  });
});
