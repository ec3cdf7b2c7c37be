/**
 * Watchlists in the console: the list of them, an admin creating one and changing or deleting it,
 * an adjudicator adding an entry (every problem shown beside the form), finding it by name,
 * severity and status, changing, expiring and removing it, and the history of what each version
 * did; the roles of the API (a viewer is offered no form and refused every POST, an adjudicator
 * keeps entries but not watchlists), CSRF refusals, and another organization's watchlist
 * answering the console's 404 page. Every refused request leaves the watchlist as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

let harness: TestApp;
let org: TestTenant;
let stranger: TestTenant;
let admin: ConsoleClient;
let adjudicator: ConsoleClient;
let viewer: ConsoleClient;

const ENTRY = { name: 'Jordan Example Reyes', type: 'person', reason: 'Employment terminated; made threats against staff.', severity: 'red' };

/** A watchlist created through the console's form; answers its id. */
async function createWatchlist(slug: string, name = `List ${slug}`): Promise<string> {
  await admin.get('/console/watchlists');
  const created = await admin.post('/console/watchlists', { name, slug, description: '', threshold: '', active: 'on' });
  assert.equal(created.statusCode, 303, created.body);
  const id = /^\/console\/watchlists\/(wl_\w+)\?done=created$/.exec(String(created.headers.location))?.[1];
  assert.ok(id, String(created.headers.location));
  return id;
}

/** An entry added through the console's form by `as`; answers its id. */
async function addEntry(watchlistId: string, fields: Record<string, string> = {}, as = adjudicator): Promise<string> {
  await as.get(`/console/watchlists/${watchlistId}/entries/new`);
  const added = await as.post(`/console/watchlists/${watchlistId}/entries`, { ...ENTRY, ...fields });
  assert.equal(added.statusCode, 303, pageText(added.body));
  const id = /\/entries\/(wle_\w+)\?done=added$/.exec(String(added.headers.location))?.[1];
  assert.ok(id);
  return id;
}

const versions = (watchlistId: string) =>
  harness.database.owner<{ version: number; change: string; actor: string }>(
    'SELECT version, change, actor FROM watchlist_versions WHERE watchlist_id = $1 ORDER BY version',
    [watchlistId],
  );
const entryRow = async (id: string) =>
  (
    await harness.database.owner<{ reason: string; severity: string; expires_at: Date | null; removed_at: Date | null }>(
      'SELECT reason, severity, expires_at, removed_at FROM watchlist_entries WHERE id = $1',
      [id],
    )
  )[0];
/** The read the audit trail recorded for a page's request (the export writes what the trail holds first). */
async function readOf(page: { headers: Record<string, unknown> }) {
  const exported = await harness.app.inject({ url: '/api/v1/audit/export?kind=read', headers: org.headers });
  assert.equal(exported.statusCode, 200, exported.body);
  const lines = exported.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { action: string; request_id: string; target: { id: string | null }; details: { ids?: string[] } });
  return lines.find((line) => line.request_id === page.headers['x-request-id']);
}
/** The entries a page of a watchlist links to, in order. */
const linkedEntries = (body: string) => [...body.matchAll(/href="\/console\/watchlists\/wl_\w+\/entries\/(wle_\w+)"/g)].map((m) => m[1]);

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  stranger = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  admin = await signedInUser(harness, org.organizationId, 'security.lead@example.com', 'admin');
  adjudicator = await signedInUser(harness, org.organizationId, 'desk@example.com', 'adjudicator');
  viewer = await signedInUser(harness, org.organizationId, 'watcher@example.com', 'viewer');
});
after(() => harness.close());

describe('the watchlists', () => {
  test('an admin creates a watchlist; the list shows its name, slug, whether it is screened, its entries and its version', async () => {
    const id = await createWatchlist('do-not-admit', 'Do not admit');
    const page = await admin.get(`/console/watchlists/${id}?done=created`);
    assert.equal(page.statusCode, 200);
    assert.match(pageText(page.body), /The watchlist is created\..*List code ORG:do-not-admit .*Screened active .*Entries 0 .*Version 1/);
    await addEntry(id);
    const list = pageText((await viewer.get('/console/watchlists')).body);
    assert.match(list, /Name Slug Screened Entries Version Last changed Do not admit do-not-admit ORG:do-not-admit active 1 2 /);
    const [created] = await harness.database.owner<{ actor_id: string; details: Record<string, unknown> }>(
      "SELECT actor_id, details FROM audit_events WHERE action = 'watchlist.created' AND target_id = $1",
      [id],
    );
    assert.equal(created?.actor_id, 'security.lead@example.com');
  });

  test('a slug taken, or not a slug, is shown beside the form with what was typed, and creates nothing', async () => {
    await createWatchlist('contractors');
    const before = await harness.database.owner('SELECT count(*)::int AS n FROM watchlists');
    await admin.get('/console/watchlists');
    const taken = await admin.post('/console/watchlists', { name: 'Contractors again', slug: 'contractors', active: 'on' });
    assert.equal(taken.statusCode, 409);
    assert.match(pageText(taken.body), /already has a watchlist with the slug contractors/);
    assert.match(taken.body, /id="watchlist-name" name="name" required maxlength="200" size="40" value="Contractors again"/);
    const bad = await admin.post('/console/watchlists', { name: '  ', slug: 'Not A Slug', threshold: '2', active: 'on' });
    assert.equal(bad.statusCode, 400);
    const problems = pageText(/<div class="notice notice-alert" role="alert">[^]*?<\/div>/.exec(bad.body)?.[0] ?? '');
    assert.match(problems, /Nothing was changed: there are 3 problems/);
    assert.match(problems, /Slug ?: must match pattern/);
    assert.match(problems, /Name ?: must NOT have fewer than 1 characters/);
    assert.match(problems, /Threshold ?: 2 is not a number from 0\.5 to 1/);
    assert.deepEqual(await harness.database.owner('SELECT count(*)::int AS n FROM watchlists'), before);
  });

  test('an admin changes its settings, then deletes it: it leaves the console, its history stays', async () => {
    const id = await createWatchlist('vendors-under-review');
    await admin.get(`/console/watchlists/${id}/settings`);
    const saved = await admin.post(`/console/watchlists/${id}/settings`, { name: 'Vendors under review', slug: 'vendors-review', threshold: '0.9' });
    assert.equal(saved.headers.location, `/console/watchlists/${id}?done=updated`);
    const page = pageText((await admin.get(saved.headers.location as string)).body);
    assert.match(page, /settings are saved\..*List code ORG:vendors-review .*Screened inactive kept, and matches nothing Threshold 0\.90/);
    const deleted = await admin.post(`/console/watchlists/${id}/delete`);
    assert.equal(deleted.headers.location, '/console/watchlists?done=deleted');
    assert.doesNotMatch((await admin.get('/console/watchlists?done=deleted')).body, new RegExp(id));
    assert.equal((await admin.get(`/console/watchlists/${id}`)).statusCode, 404);
    assert.deepEqual(
      (await versions(id)).map((v) => v.change),
      ['created', 'updated', 'deleted'],
    );
  });
});

describe('entries', () => {
  test('adding one: every problem is named by its field, with what was typed kept; then it is added', async () => {
    const id = await createWatchlist('former-staff');
    await adjudicator.get(`/console/watchlists/${id}/entries/new`);
    const unreadable = await adjudicator.post(`/console/watchlists/${id}/entries`, { ...ENTRY, countries: 'USA', identifiers: 'passport' });
    assert.equal(unreadable.statusCode, 400);
    assert.match(pageText(unreadable.body), /Nothing was changed: there are 2 problems, each under the field it is in\./);
    assert.match(pageText(unreadable.body), /Identifiers, item 1 ?: "passport" is not type:value or type:value:country/);
    assert.match(pageText(unreadable.body), /Countries, item 1 ?: must match pattern/);
    const wrong = await adjudicator.post(`/console/watchlists/${id}/entries`, { ...ENTRY, countries: 'US, XX', dates_of_birth: '1984-13-01', reason: '  ' });
    assert.equal(wrong.statusCode, 400);
    const text = pageText(wrong.body);
    assert.match(text, /Dates of birth, item 1 ?: 1984-13-01 is not a date/);
    assert.match(text, /Countries, item 2 ?: "XX" is not an ISO 3166-1 alpha-2 country code/);
    assert.match(text, /Reason ?: must not be blank/);
    assert.match(wrong.body, /name="countries" value="US, XX"/, 'what was typed is kept');
    assert.deepEqual((await versions(id)).length, 1, 'nothing was added');

    const entry = await addEntry(id, {
      aliases: 'Jordan E. Reyes\r\nJ. Reyes',
      countries: 'us, MX',
      dates_of_birth: '1984-06-02',
      identifiers: 'national_id:123-45-6789:US',
      external_id: 'HR-20931',
      reason: 'Terminated 2026-11-02.\r\nMade threats against staff.',
      expires_on: '2099-06-30',
    });
    const page = await adjudicator.get(`/console/watchlists/${id}/entries/${entry}?done=added`);
    assert.match(
      pageText(page.body),
      /The entry is added.*Name Jordan Example Reyes Other names Jordan E\. Reyes; J\. Reyes Type person Dates of birth 1984-06-02 Countries US, MX Identifiers national_id 123-45-6789 \(US\) Your reference HR-20931 Reason Terminated 2026-11-02\. Made threats against staff\. Severity red Status active Expires 2099-06-30 00:00 UTC Added .* by desk@example\.com/,
    );
    assert.equal((await entryRow(entry))?.reason, 'Terminated 2026-11-02.\nMade threats against staff.', 'its line break kept, as LF');
    assert.match(
      page.body,
      /<textarea id="entry-aliases" name="aliases" rows="3" aria-describedby="entry-aliases-help">Jordan E\. Reyes\nJ\. Reyes<\/textarea>/,
    );
    const viewed = await readOf(page);
    assert.deepEqual([viewed?.action, viewed?.target.id], ['watchlist_entry.viewed', entry], 'reading an entry is recorded as the API records it');
  });

  test('entries are found by a name or alias, severity and status, a page at a time', async () => {
    const id = await createWatchlist('search');
    const reyes = await addEntry(id, { name: 'Jordan Example Reyes', aliases: 'J. R. Smith', severity: 'red' });
    const vendor = await addEntry(id, { name: 'Example Dynamics LLC', type: 'organization', severity: 'orange' });
    const path = `/console/watchlists/${id}`;
    assert.deepEqual(linkedEntries((await viewer.get(`${path}?q=SMITH`)).body), [reyes]);
    assert.deepEqual(linkedEntries((await viewer.get(`${path}?q=example&severity=orange`)).body), [vendor]);
    assert.deepEqual(linkedEntries((await viewer.get(`${path}?status=expired`)).body), []);
    assert.match((await viewer.get(`${path}?q=example&severity=orange`)).body, /<option value="orange" selected>/, 'the search form keeps its values');
    const more = Array.from({ length: 55 }, (_, i) => ({ name: `Paged Person ${i}`, reason: 'Paging.', severity: 'yellow' }));
    const imported = await harness.app.inject({
      method: 'PUT',
      url: `/api/v1/watchlists/${id}/entries?mode=upsert`,
      headers: org.headers,
      payload: { entries: more },
    });
    assert.equal(imported.statusCode, 200, imported.body);
    const first = await viewer.get(`${path}?severity=yellow`);
    const next = /href="([^"]*after=wle_\w+[^"]*)" rel="next"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(next?.includes('severity=yellow'), 'the next page keeps the search');
    const second = await viewer.get(next as string);
    const [firstIds, secondIds] = [linkedEntries(first.body), linkedEntries(second.body)];
    assert.deepEqual([firstIds.length, secondIds.length], [50, 5]);
    assert.deepEqual(
      firstIds.filter((e) => secondIds.includes(e)),
      [],
      'no entry on two pages',
    );
    const read = await readOf(second);
    assert.deepEqual([read?.action, read?.details.ids], ['watchlist_entry.listed', secondIds], 'each page is recorded as a read of the entries it showed');
  });

  test('an entry is changed, expired now or from a date, its expiry cleared, and removed', async () => {
    const id = await createWatchlist('lifecycle');
    const entry = await addEntry(id);
    const path = `/console/watchlists/${id}/entries/${entry}`;
    await adjudicator.get(path);
    const changed = await adjudicator.post(path, { ...ENTRY, severity: 'orange', reason: 'Threats reported by two staff.' });
    assert.equal(changed.headers.location, `${path}?done=changed`);
    assert.deepEqual(
      { ...(await entryRow(entry)), expires_at: undefined },
      { reason: 'Threats reported by two staff.', severity: 'orange', expires_at: undefined, removed_at: null },
    );

    const expired = await adjudicator.post(`${path}/expire`, { when: 'now' });
    assert.equal(expired.headers.location, `${path}?done=expired`);
    assert.match(pageText((await adjudicator.get(`/console/watchlists/${id}?status=expired`)).body), /Jordan Example Reyes person orange expired/);
    // Changing it again keeps the expiry: it has its own form.
    await adjudicator.get(path);
    await adjudicator.post(path, { ...ENTRY, severity: 'yellow' });
    assert.ok((await entryRow(entry))?.expires_at);
    await adjudicator.post(`${path}/expire`, { when: 'date', on: '2099-01-31' });
    assert.equal((await entryRow(entry))?.expires_at?.toISOString(), '2099-01-31T00:00:00.000Z');
    const noDay = await adjudicator.post(`${path}/expire`, { when: 'date', on: '2099-02-31' });
    assert.equal(noDay.statusCode, 400);
    assert.match(pageText(noDay.body), /2099-02-31 is not a day of the calendar\./);
    await adjudicator.post(`${path}/expire`, { when: 'never' });
    assert.equal((await entryRow(entry))?.expires_at, null);

    const removed = await adjudicator.post(`${path}/remove`);
    assert.equal(removed.headers.location, `${path}?done=removed`);
    const page = await adjudicator.get(removed.headers.location as string);
    assert.match(pageText(page.body), /The entry is removed.*Status removed .*This entry was removed .* add it as a new entry\./);
    assert.ok(!page.body.includes(`action="${path}"`), 'a removed entry offers no change');
    assert.deepEqual(
      (await versions(id)).map((v) => `${v.change} by ${v.actor}`),
      [
        'created by user:security.lead@example.com',
        'entries_added by user:desk@example.com',
        ...Array(5).fill('entries_changed by user:desk@example.com'),
        'entries_removed by user:desk@example.com',
      ],
    );
  });
});

describe('the history', () => {
  test('names what each version did, who and when; a version names the entries it touched', async () => {
    const id = await createWatchlist('history');
    const entry = await addEntry(id, { name: 'Ana Example Novak' });
    await adjudicator.get(`/console/watchlists/${id}/entries/${entry}`);
    await adjudicator.post(`/console/watchlists/${id}/entries/${entry}`, { ...ENTRY, name: 'Ana Example Novak', severity: 'yellow' });
    const watchlist = pageText((await viewer.get(`/console/watchlists/${id}`)).body);
    assert.match(
      watchlist,
      /Latest changes Version When Who What Added Changed Removed Entries after 3 .* UTC desk@example\.com Entry changed 0 1 0 1 2 .* UTC desk@example\.com Entry added 1 0 0 1 1 .* UTC security\.lead@example\.com Watchlist created 0 0 0 0/,
    );
    const history = await viewer.get(`/console/watchlists/${id}/history`);
    assert.equal(history.statusCode, 200);
    assert.match(history.body, new RegExp(`href="/console/watchlists/${id}/versions/2">2</a>`));
    const version = pageText((await viewer.get(`/console/watchlists/${id}/versions/3`)).body);
    assert.match(version, /What Entry changed Who desk@example\.com When .* Counts 0 added, 1 changed, 0 removed; 1 entries after it/);
    assert.match(version, /Changed \(1\) Ana Example Novak yellow active/);
    assert.equal((await viewer.get(`/console/watchlists/${id}/versions/9`)).statusCode, 404);
  });
});

describe('roles, CSRF and other organizations', () => {
  test('a viewer sees the watchlists and their entries but is offered no form, and every change sent anyway is refused', async () => {
    const id = await createWatchlist('viewer-test');
    const entry = await addEntry(id);
    const before = await versions(id);
    for (const url of ['/console/watchlists', `/console/watchlists/${id}`, `/console/watchlists/${id}/entries/${entry}`, `/console/watchlists/${id}/history`]) {
      const page = await viewer.get(url);
      assert.equal(page.statusCode, 200, url);
      // The sign-out form is the only form that posts.
      assert.deepEqual(
        [...page.body.matchAll(/<form[^>]*method="post" action="([^"]+)"/g)].map((m) => m[1]),
        ['/console/sign-out'],
        url,
      );
    }
    assert.match(pageText((await viewer.get(`/console/watchlists/${id}`)).body), /You have the viewer role: you can look at the watchlist but not change it\./);
    for (const url of [`/console/watchlists/${id}/entries/new`, `/console/watchlists/${id}/import`, `/console/watchlists/${id}/settings`])
      assert.equal((await viewer.get(url)).statusCode, 403, url);
    await viewer.get(`/console/watchlists/${id}`);
    for (const [url, form] of [
      ['/console/watchlists', { name: 'Mine', slug: 'mine' }],
      [`/console/watchlists/${id}/entries`, ENTRY],
      [`/console/watchlists/${id}/entries/${entry}`, { ...ENTRY, severity: 'yellow' }],
      [`/console/watchlists/${id}/entries/${entry}/expire`, { when: 'now' }],
      [`/console/watchlists/${id}/entries/${entry}/remove`, {}],
      [`/console/watchlists/${id}/settings`, { name: 'Renamed', slug: 'renamed' }],
      [`/console/watchlists/${id}/delete`, {}],
    ] as const) {
      const refused = await viewer.post(url, form);
      assert.equal(refused.statusCode, 403, url);
      assert.match(pageText(refused.body), /this request comes from a person with the viewer role/);
    }
    assert.deepEqual(await versions(id), before);
  });

  test('an adjudicator keeps entries but is offered no watchlist settings, and cannot create, change or delete one', async () => {
    const id = await createWatchlist('adjudicator-test');
    const page = await adjudicator.get(`/console/watchlists/${id}`);
    assert.match(pageText(page.body), /Add an entry Import a CSV file/);
    assert.ok(!page.body.includes(`/console/watchlists/${id}/settings`));
    assert.doesNotMatch(pageText((await adjudicator.get('/console/watchlists')).body), /Create a watchlist/);
    assert.equal((await adjudicator.post('/console/watchlists', { name: 'Mine', slug: 'mine-too' })).statusCode, 403);
    assert.equal((await adjudicator.post(`/console/watchlists/${id}/delete`)).statusCode, 403);
    assert.match(
      pageText((await adjudicator.get(`/console/watchlists/${id}/settings`)).body),
      /needs a person with the admin role or an admin API key; this request comes from a person with the adjudicator role/,
    );
    assert.deepEqual((await versions(id)).length, 1);
  });

  test("a form without this browser's CSRF token is refused and changes nothing", async () => {
    const id = await createWatchlist('csrf-test');
    const entry = await addEntry(id);
    const before = await versions(id);
    await adjudicator.get(`/console/watchlists/${id}/entries/${entry}`);
    const missing = await adjudicator.post(`/console/watchlists/${id}/entries/${entry}/remove`, { _csrf: null });
    assert.equal(missing.statusCode, 403);
    assert.match(pageText(missing.body), /did not come from a console page of this server/);
    await admin.get('/console/watchlists');
    const borrowed = await adjudicator.post(`/console/watchlists/${id}/entries`, { ...ENTRY, _csrf: admin.csrf() });
    assert.equal(borrowed.statusCode, 403);
    assert.deepEqual(await versions(id), before);
  });

  test("another organization's watchlist and its entries answer the console's 404 page, and are left as they were", async () => {
    const theirs = (await (
      await harness.app.inject({ method: 'POST', url: '/api/v1/watchlists', headers: stranger.headers, payload: { slug: 'theirs', name: 'Theirs' } })
    ).json()) as { id: string };
    const entry = (
      await harness.app.inject({ method: 'POST', url: `/api/v1/watchlists/${theirs.id}/entries`, headers: stranger.headers, payload: ENTRY })
    ).json() as { id: string };
    const before = await versions(theirs.id);
    await admin.get('/console/watchlists');
    assert.doesNotMatch((await admin.get('/console/watchlists')).body, /Theirs/);
    for (const response of [
      await admin.get(`/console/watchlists/${theirs.id}`),
      await admin.get(`/console/watchlists/${theirs.id}/entries/${entry.id}`),
      await admin.get(`/console/watchlists/${theirs.id}/history`),
      await admin.get(`/console/watchlists/${theirs.id}/versions/1`),
      await admin.get(`/console/watchlists/${theirs.id}/settings`),
      await admin.post(`/console/watchlists/${theirs.id}/entries/${entry.id}/remove`),
      await admin.post(`/console/watchlists/${theirs.id}/entries`, ENTRY),
      await admin.post(`/console/watchlists/${theirs.id}/delete`),
    ]) {
      assert.equal(response.statusCode, 404);
      assert.match(pageText(response.body), /There is no watchlist wl_\w+ in your organization\./);
    }
    assert.deepEqual(await versions(theirs.id), before);
  });

  test('the watchlist pages carry no inline script or style, under the console CSP', async () => {
    const id = await createWatchlist('csp-test');
    const entry = await addEntry(id, { name: '<script>alert(1)</script> "Q" & Co', reason: '<style>x</style>' });
    for (const url of [
      '/console/watchlists',
      `/console/watchlists/${id}`,
      `/console/watchlists/${id}/entries/new`,
      `/console/watchlists/${id}/entries/${entry}`,
      `/console/watchlists/${id}/import`,
      `/console/watchlists/${id}/settings`,
      `/console/watchlists/${id}/history`,
      `/console/watchlists/${id}/versions/2`,
    ]) {
      const response = await admin.get(url);
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-security-policy']), /^default-src 'none'; script-src 'self'; style-src 'self'/);
      assert.doesNotMatch(response.body, /<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=/i, url);
    }
    assert.ok((await admin.get(`/console/watchlists/${id}`)).body.includes('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Q&quot; &amp; Co'));
  });
});
