/**
 * One organization's watchlist index, pure: a change rebuilds the delta and never the base; a
 * changed or removed entry's old entity in the base no longer matches and takes no place among
 * the matches returned; past its bound the base is built again and the answers stay the same;
 * expiry and an inactive watchlist stop matches with no change applied.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Watchlist, WatchlistEntry } from '../../../src/features/watchlists/model.ts';
import { type IndexedWatchlist, OrganizationIndex } from '../../../src/features/watchlists/organization-index.ts';
import { turnsDuring } from '../../helpers/turns.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
const watchlist = (fields: Partial<Watchlist> = {}): IndexedWatchlist => ({
  id: 'wl_00000000000000000000000001',
  slug: 'do-not-admit',
  name: 'Do not admit',
  description: null,
  threshold: null,
  active: true,
  version: 1,
  entryCount: 0,
  createdBy: 'test',
  createdAt: NOW,
  updatedAt: NOW,
  deletedAt: null,
  contentSha256: null,
  ...fields,
});

let serial = 0;
const entry = (name: string, fields: Partial<WatchlistEntry> = {}): WatchlistEntry => ({
  id: `wle_${String(++serial).padStart(26, '0')}`,
  watchlistId: 'wl_00000000000000000000000001',
  externalId: null,
  type: 'person',
  names: [{ full: name, kind: 'primary' }],
  datesOfBirth: [],
  countries: [],
  identifiers: [],
  reason: 'test',
  severity: 'orange',
  expiresAt: null,
  addedBy: 'test',
  addedAt: NOW,
  updatedBy: 'test',
  updatedAt: NOW,
  removedAt: null,
  version: 1,
  sha256: '0'.repeat(64),
  ...fields,
});

const SURNAMES = ['Abernathy', 'Bellweather', 'Castellanos', 'Drummond', 'Eastwick', 'Fairbanks', 'Gallagher', 'Hollingsworth', 'Ingersoll', 'Jablonski'];
const screenOptions = { threshold: () => 0.8, limit: 5 };

function indexWith(deltaLimit: number) {
  return new OrganizationIndex({ rarity: () => undefined, deltaLimit });
}

const matched = (index: OrganizationIndex, name: string, now = NOW) => index.screen({ name, kind: 'person' }, screenOptions, now).map((m) => m.entry.id);

describe('an organization watchlist index', () => {
  test('entries past the bound make the base; one entry added, changed or removed rebuilds only the delta', async () => {
    const index = indexWith(4);
    const first = SURNAMES.map((surname) => entry(`Rosalind ${surname}`));
    await index.apply({ watchlists: [watchlist()], entries: first });
    assert.deepEqual(index.builds, { base: 1, delta: 0 });

    const added = entry('Quentin Marlowe-Astbury');
    await index.apply({ watchlists: [watchlist({ version: 2 })], entries: [added] });
    assert.deepEqual(index.builds, { base: 1, delta: 1 });
    assert.deepEqual(matched(index, 'Quentin Marlowe-Astbury'), [added.id]);
    assert.deepEqual(matched(index, 'Rosalind Drummond'), [first[3]?.id]);

    const changed = { ...(first[0] as WatchlistEntry), names: [{ full: 'Rosamund Abernethy-Kerr', kind: 'primary' as const }], version: 3 };
    await index.apply({ watchlists: [watchlist({ version: 3 })], entries: [changed] });
    assert.deepEqual(index.builds, { base: 1, delta: 2 });
    assert.deepEqual(matched(index, 'Rosamund Abernethy-Kerr'), [changed.id]);
    assert.deepEqual(matched(index, 'Rosalind Abernathy'), [], "the base's old entity no longer matches");

    await index.apply({ watchlists: [watchlist({ version: 4 })], entries: [{ ...(first[1] as WatchlistEntry), removedAt: NOW, version: 4 }] });
    assert.deepEqual(matched(index, 'Rosalind Bellweather'), []);
    assert.equal(index.builds.base, 1, 'still the first base');
  });

  test('a superseded or removed entity takes no place among the matches returned', async () => {
    const index = indexWith(2);
    const twins = [entry('Halvard Renstrom'), entry('Halvard Renstrom'), entry('Halvard Renstrom')];
    await index.apply({ watchlists: [watchlist()], entries: twins });
    const [a, b, c] = twins as [WatchlistEntry, WatchlistEntry, WatchlistEntry];
    const one = { threshold: () => 0.8, limit: 1 };
    await index.apply({
      watchlists: [watchlist()],
      entries: [
        { ...a, removedAt: NOW },
        { ...b, removedAt: NOW },
      ],
    });
    assert.deepEqual(
      index.screen({ name: 'Halvard Renstrom', kind: 'person' }, one, NOW).map((m) => m.entry.id),
      [c.id],
    );
  });

  test('past its bound the base is built again; the answers are the same, and the delta is empty again', async () => {
    const index = indexWith(3);
    const people = SURNAMES.map((surname) => entry(`Ottoline ${surname}`));
    await index.apply({ watchlists: [watchlist()], entries: people });
    const renamed = people.slice(0, 4).map((p, i) => ({ ...p, names: [{ full: `Percival ${SURNAMES[i]}`, kind: 'primary' as const }] }));
    for (const one of renamed) await index.apply({ watchlists: [watchlist()], entries: [one] });
    await index.settled();
    assert.ok(index.builds.base >= 2, 'the delta and the superseded passed 3: a base built again');
    assert.equal(index.deltaSize, 0);
    assert.equal(index.size, SURNAMES.length, 'the superseded entities went with the old base');
    for (const [i, one] of renamed.entries()) {
      assert.deepEqual(matched(index, `Percival ${SURNAMES[i]}`), [one.id]);
      assert.deepEqual(matched(index, `Ottoline ${SURNAMES[i]}`), []);
    }
    assert.deepEqual(matched(index, 'Ottoline Jablonski'), [people[9]?.id]);
  });

  test('an entry past its expiry, or on an inactive watchlist, matches nothing, with no change applied', async () => {
    const index = indexWith(8);
    const expiring = entry('Leopoldine Vasquez-Harrow', { expiresAt: new Date(NOW.getTime() + 3_600_000) });
    await index.apply({ watchlists: [watchlist()], entries: [expiring] });
    assert.deepEqual(matched(index, 'Leopoldine Vasquez-Harrow'), [expiring.id]);
    assert.deepEqual(matched(index, 'Leopoldine Vasquez-Harrow', new Date(NOW.getTime() + 7_200_000)), []);
    await index.apply({ watchlists: [watchlist({ active: false, version: 2 })], entries: [] });
    assert.deepEqual(matched(index, 'Leopoldine Vasquez-Harrow'), []);
    assert.deepEqual(index.consulted, [], 'an inactive watchlist is not consulted');
    await index.apply({ watchlists: [], entries: [] });
    assert.equal(index.size, 0, 'a deleted watchlist takes its entries with it');
  });

  test('a first use of thousands of entries converts them turn by turn: other callbacks run before it is applied, and it answers the same', async () => {
    const count = 5_000;
    // A bound above the count: the index is built at once, so any turn let by is the conversion's.
    const index = indexWith(count);
    const many = Array.from({ length: count }, (_, i) => entry(`Cordelia ${SURNAMES[i % SURNAMES.length]} ${i.toString(36)}`));
    const { turns } = await turnsDuring(() => index.apply({ watchlists: [watchlist()], entries: many }));
    assert.ok(turns > 0, 'the conversion held the event loop from start to end');
    assert.equal(index.size, count);
    const last = many[count - 1] as WatchlistEntry;
    assert.deepEqual(matched(index, last.names[0]?.full ?? ''), [last.id]);
  });

  test("each match is held to its watchlist's threshold", async () => {
    const index = indexWith(8);
    const strict = watchlist({ id: 'wl_00000000000000000000000002', slug: 'strict', threshold: 0.99 });
    const near = entry('Alasdair Vantongeren', { watchlistId: strict.id });
    await index.apply({ watchlists: [watchlist(), strict], entries: [near] });
    const threshold = (w: Watchlist) => w.threshold ?? 0.8;
    assert.deepEqual(index.screen({ name: 'Alasdair Vantongeran', kind: 'person' }, { threshold }, NOW), []);
    await index.apply({ watchlists: [watchlist(), { ...strict, threshold: null }], entries: [] });
    const [found] = index.screen({ name: 'Alasdair Vantongeran', kind: 'person' }, { threshold }, NOW);
    assert.equal(found?.watchlist.slug, 'strict');
  });
});
