/**
 * A case whose match came from one of the organization's watchlists shows, on its page, the
 * watchlist's name (a link to its page), the entry's severity as a labelled badge and the reason
 * the entry was listed for; a match on a public list beside it shows none of that. The stored
 * screening is the one a prescreen recorded, its first match made a watchlist match (the shape
 * screening-record.ts's MatchRecord gives it) through the owner's connection, its hash recomputed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { canonicalJson } from '../../../src/canonical-json.ts';
import { sha256Hex } from '../../../src/sha256.ts';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;
let adjudicator: ConsoleClient;

const api = async (method: 'POST' | 'GET', url: string, payload?: object) => {
  const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: org.headers, ...(payload && { payload }) });
  assert.ok(response.statusCode < 300, response.body);
  return response.json();
};

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
  await loadTestLists(harness);
  adjudicator = await signedInUser(harness, org.organizationId, 'desk@example.com', 'adjudicator');
});
after(() => harness.close());

test("a watchlist match shows its watchlist, severity and reason on the case page; a public list's match does not", async () => {
  const watchlist = await api('POST', '/watchlists', { slug: 'do-not-admit', name: 'Do not admit <Security>' });
  const reason = 'Made threats against staff on 2026-11-02.\nCall security: <b>do not</b> admit.';
  const entry = await api('POST', `/watchlists/${watchlist.id}/entries`, { name: 'Karim Yusuf Abu-Ali', reason, severity: 'orange' });
  const screened = await api('POST', '/prescreen', { subject: 'Karim Yusuf Abu-Ali' });
  assert.ok(screened.case_id, 'the public list opened a case');

  const [row] = await harness.database.owner<{ record: { matches: Record<string, unknown>[] } }>('SELECT record FROM screenings WHERE id = $1', [screened.id]);
  const publicMatch = row?.record.matches[0] as Record<string, unknown>;
  const watchlistMatch = {
    ...publicMatch,
    id: `${publicMatch.id}_wl`,
    list: 'ORG:do-not-admit',
    entry_id: entry.id,
    entry_name: 'Karim Yusuf Abu-Ali',
    watchlist: { id: watchlist.id, slug: 'do-not-admit', name: 'Do not admit <Security>', severity: 'orange', reason },
  };
  const record = { ...row?.record, matches: [watchlistMatch, publicMatch] };
  await harness.database.owner('UPDATE screenings SET record = $2::jsonb, record_sha256 = $3 WHERE id = $1', [
    screened.id,
    JSON.stringify(record),
    sha256Hex(canonicalJson(record)),
  ]);

  const page = await adjudicator.get(`/console/cases/${screened.case_id}`);
  assert.equal(page.statusCode, 200);
  const [onWatchlist, onPublicList] = [...page.body.matchAll(/<section class="match"[^]*?<\/section>/g)].map((m) => m[0]);
  assert.ok(onWatchlist && onPublicList);
  const block = /<dl class="watchlist-match">[^]*?<\/dl>/.exec(onWatchlist)?.[0] ?? '';
  assert.match(
    pageText(block),
    /Watchlist Do not admit <Security> ORG:do-not-admit Severity orange Reason Made threats against staff on 2026-11-02\. Call security: <b>do not<\/b> admit\./,
  );
  assert.ok(block.includes(`<a href="/console/watchlists/${watchlist.id}">Do not admit &lt;Security&gt;</a>`), 'the name links to its page, escaped');
  assert.ok(block.includes('<span class="badge badge-severity-orange">orange</span>'), 'the severity is a badge that says its word');
  assert.ok(block.includes('&lt;b&gt;do not&lt;/b&gt;'), 'the reason cannot become markup');
  assert.match(pageText(onWatchlist), /Match 1 of 2: Karim Yusuf Abu-Ali ORG:do-not-admit/);
  assert.doesNotMatch(pageText(onWatchlist), /this list is not loaded now/, 'a watchlist is not a public list version to be loaded');
  assert.ok(!onPublicList.includes('watchlist-match'), "a public list's match names no watchlist");
  assert.match(pageText(onPublicList), /OFAC_SDN/);

  // The link leads to the watchlist's page, where the entry is.
  const linked = await adjudicator.get(`/console/watchlists/${watchlist.id}`);
  assert.ok(linked.body.includes(`/console/watchlists/${watchlist.id}/entries/${entry.id}`));
});
