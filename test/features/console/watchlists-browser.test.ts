/**
 * Watchlists in a real browser (chromium, the service as its own process; browser-harness.ts):
 * an admin signs in, creates a watchlist, adds an entry, finds it by searching, changes it,
 * expires it, imports a CSV file chosen from disk (a refused one first, its problems by row and
 * column), and reads the history; a viewer sees the same pages with no form. Every control on
 * every page has a name. Screenshots go to a temporary folder named in the test output.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { skipWithoutChromium, unlabelledControls } from '../../helpers/browser.ts';
import { consoleInBrowser, PASSWORD, type Person } from './browser-harness.ts';

const skip = skipWithoutChromium();
const people = {
  wanda: { email: 'wanda@example.com', role: 'admin', home: 'own' },
  vic: { email: 'vic@example.com', role: 'viewer', home: 'own' },
} as const satisfies Record<string, Person>;

const CSV_HEADER = 'external_id,type,name,aliases,countries,reason,severity\r\n';
const csvFile = (rows: string) => ({ name: 'entries.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV_HEADER + rows) });

describe('watchlists in a browser', { skip }, () => {
  const harness = consoleInBrowser(people);
  const { keys, api, pageOf, shoot, setPassword } = harness;
  let watchlistPath = '';
  const unnamed: string[] = [];
  /** Every control of the page has a name; the page goes to the screenshots. */
  const look = async (page: Page, name: string) => {
    unnamed.push(...(await unlabelledControls(page)).map((c) => `${page.url()}: ${c}`));
    await shoot(page, name);
  };

  test('an admin signs in, creates a watchlist, adds an entry, finds it, changes it and expires it', async (t) => {
    const page = await setPassword('wanda');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByLabel('Email address').fill(people.wanda.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/queue$/);

    await page.getByRole('link', { name: 'Watchlists' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Do not admit');
    await page.getByLabel('Slug').fill('do-not-admit');
    await page.getByLabel('Description').fill('Former staff and others barred from every site.');
    await page.getByRole('button', { name: 'Create the watchlist' }).click();
    await page.waitForURL(/\/console\/watchlists\/wl_\w+\?done=created$/);
    watchlistPath = new URL(page.url()).pathname;
    assert.match(await page.getByRole('status').innerText(), /The watchlist is created\./);
    await look(page, '21-watchlist-created');

    await page.getByRole('link', { name: 'Add an entry' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Jordan Example Reyes');
    await page.getByLabel('Other names').fill('Jordan E. Reyes');
    await page.getByLabel('Countries').fill('US');
    await page.getByLabel('Reason').fill('Employment terminated; made threats against staff.');
    await page.getByLabel('red: the most serious').check();
    await look(page, '22-add-entry');
    await page.getByRole('button', { name: 'Add the entry' }).click();
    await page.waitForURL(/\/entries\/wle_\w+\?done=added$/);
    const entryId = /\/entries\/(wle_\w+)/.exec(page.url())?.[1] as string;
    assert.match(await page.getByRole('status').innerText(), /The entry is added/);
    assert.match(await page.locator('.entry-details').innerText(), /Severity\s+red[^]*Status\s+active/);

    // Found by searching: by part of an alias, and not under another severity.
    await page.getByRole('link', { name: 'Do not admit' }).click();
    await page.getByLabel('Name contains').fill('e. reyes');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\?q=e\.\+reyes/);
    assert.match(await page.locator('table.entries').innerText(), /Jordan Example Reyes[^]*person\s+red\s+active/);
    await look(page, '23-search');
    await page.getByLabel('Severity').selectOption('yellow');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/severity=yellow/);
    assert.match(await page.getByRole('region', { name: 'Entries' }).innerText(), /No entry matches\./);

    await page.goto(`${watchlistPath}?q=reyes`);
    await page.getByRole('link', { name: 'Jordan Example Reyes' }).click();
    await page.getByLabel('orange: serious').check();
    await page.getByLabel('Reason').fill('Threats reported by two staff members.');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.waitForURL(/\?done=changed$/);
    assert.match(await page.locator('.entry-details').innerText(), /Threats reported by two staff members\.[^]*Severity\s+orange/);

    await page.getByLabel('Now: it stops matching at once').check();
    await page.getByRole('button', { name: 'Set the expiry' }).click();
    await page.waitForURL(/\?done=expired$/);
    assert.match(await page.locator('.entry-details').innerText(), /Status\s+expired/);
    await look(page, '24-entry-expired');
    const entry = await api(keys.own, 'GET', `/watchlists/${watchlistPath.split('/').pop()}/entries/${entryId}`);
    assert.deepEqual([entry.status, entry.severity], ['expired', 'orange']);
    t.diagnostic(`screenshots: ${harness.shots}`);
  });

  test('an admin imports a CSV file: a refused one shows its problems by row and column; then the history', async () => {
    const page = await pageOf('wanda');
    await page.goto(watchlistPath);
    await page.getByRole('link', { name: 'Import a CSV file' }).click();
    await page
      .getByLabel('CSV file')
      .setInputFiles(
        csvFile(
          'V-1,organization,Example Dynamics LLC,,AE,Vendor under investigation.,orange\r\nV-2,person,Sam Example,,US,,purple\r\nV-3,person,Lee Example,,ZZ,Barred.,red\r\n',
        ),
      );
    await page.getByRole('button', { name: 'Import the file' }).click();
    assert.match(await page.locator('main .notice-alert').innerText(), /The file was refused; nothing was changed\. It has 3 problems\./);
    assert.match(await page.locator('table.problems').innerText(), /3\s+reason\s+[^]*3\s+severity\s+must be one of[^]*4\s+countries\s+"ZZ" is not/);
    await look(page, '25-import-refused');

    await page
      .getByLabel('CSV file')
      .setInputFiles(
        csvFile(
          'V-1,organization,Example Dynamics LLC,,AE,Vendor under investigation.,orange\r\nHR-7,person,Casey Example,C. Example,US,Badge revoked.,yellow\r\n',
        ),
      );
    await page.getByRole('button', { name: 'Import the file' }).click();
    await page.waitForURL(/\/versions\/\d+\?done=imported$/);
    assert.match(await page.getByRole('status').innerText(), /The file is imported: 2 added, 0 changed, 0 removed\./);
    assert.match(await page.getByRole('region', { name: 'Added (2)' }).innerText(), /Example Dynamics LLC[^]*Casey Example/);
    await look(page, '26-imported-version');

    await page.getByRole('link', { name: 'The full history' }).click();
    const history = await page.locator('table.history').innerText();
    const rows = history
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t').slice(2, 4).join(' '));
    assert.deepEqual(rows, [
      'wanda@example.com Import (add and change)',
      'wanda@example.com Entry changed',
      'wanda@example.com Entry changed',
      'wanda@example.com Entry added',
      'wanda@example.com Watchlist created',
    ]);
    await look(page, '27-history');
    await page.goto('/console/watchlists');
    assert.match(await page.locator('main table').innerText(), /Do not admit\s+do-not-admit ORG:do-not-admit\s+active\s+3\s+5/);
    await look(page, '20-watchlists');
  });

  test('a viewer sees the watchlist and its entries, and is offered no form; every control of every page has a name', async () => {
    const vic = await setPassword('vic');
    await vic.getByRole('link', { name: 'Watchlists' }).click();
    await vic.getByRole('link', { name: 'Do not admit' }).click();
    assert.match(await vic.locator('main').innerText(), /You have the viewer role: you can look at the watchlist but not change it\./);
    assert.equal(await vic.getByRole('link', { name: 'Add an entry' }).count(), 0);
    await vic.getByRole('link', { name: 'Casey Example' }).click();
    assert.match(await vic.locator('.entry-details').innerText(), /Other names\s+C\. Example[^]*Severity\s+yellow/);
    assert.equal(await vic.locator('main form[method="post"]').count(), 0, 'no form that changes anything');
    await look(vic, '28-viewer-entry');
    assert.deepEqual(unnamed, []);
  });
});
