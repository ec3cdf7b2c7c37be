/**
 * The console in a real browser (Debian's chromium through playwright-core) against the service as
 * its own process: people set their passwords from their setup links and sign in (by keyboard
 * alone); a visitor checked in at the door waits on a case, an adjudicator clears it and the
 * visitor is on site; two people confirm a DENIED under four-eyes rules; a Defense-tier site runs
 * its door (denies one held visitor, releases another and checks them out); a viewer is refused; a
 * forged form is refused; another organization's case is not found; signing out ends the session.
 * Screenshots of the main pages go to a temporary folder named in the test output.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { skipWithoutChromium, unlabelledControls } from '../../helpers/browser.ts';
import { consoleInBrowser, PASSWORD, type Person, postForm } from './browser-harness.ts';

const skip = skipWithoutChromium();
/** Dana works for a Defense-tier organization; the others for an Enterprise one. */
const people = {
  alice: { email: 'alice@example.com', role: 'admin', home: 'own' },
  bob: { email: 'bob@example.com', role: 'adjudicator', home: 'own' },
  victor: { email: 'victor@example.com', role: 'viewer', home: 'own' },
  dana: { email: 'dana@example.com', role: 'adjudicator', home: 'defense' },
} as const satisfies Record<string, Person>;

describe('the console in a browser', { skip }, () => {
  const harness = consoleInBrowser(people);
  const { keys, api, pageOf, shoot, setPassword } = harness;

  test('people set their passwords from their links; one signs out and in again by keyboard alone', async (t) => {
    for (const who of ['bob', 'victor'] as const) await setPassword(who);
    const page = await setPassword('alice');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in\?notice=signed_out$/);
    assert.match(await page.getByRole('status').innerText(), /You are signed out\./);
    await page.goto('/console/queue');
    assert.match(page.url(), /\/console\/sign-in\?next=%2Fconsole%2Fqueue$/, 'signed out means signed out');
    await shoot(page, '01-sign-in');

    // Keyboard only: the skip link first, then through the form, Enter to send it.
    await page.keyboard.press('Tab');
    assert.equal(await page.locator(':focus').textContent(), 'Skip to content');
    for (let i = 0; i < 6 && (await page.locator(':focus').getAttribute('id')) !== 'email'; i++) await page.keyboard.press('Tab');
    await page.keyboard.type(people.alice.email);
    await page.keyboard.press('Tab');
    assert.equal(await page.locator(':focus').getAttribute('id'), 'password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/queue$/);
    assert.match(await page.locator('.sign-out').innerText(), /Signed in as alice@example\.com \(admin\)/);
    t.diagnostic(`screenshots: ${harness.shots}`);
  });

  // Clearing suppresses this subject's matches from then on: the tests after it screen other subjects (another date of birth counts).
  test('a visitor checked in at the door waits on a case; clearing it, by keyboard, puts them on site', async () => {
    const session = await api(keys.own, 'POST', '/checkin', {
      visitor: { name: 'Karim Yusuf Abu-Ali', company: 'Example Trading Co., Ltd.' },
      site: 'Plant 7',
      host: { name: 'R. Alvarez' },
      badge_number: 'V-0042',
    });
    assert.equal(session.status, 'pending_review');
    const page = await pageOf('alice');
    await page.goto('/console/queue');
    await shoot(page, '02-queue');
    await page.getByRole('link', { name: 'Karim Yusuf Abu-Ali (Example Trading Co., Ltd.)' }).click();
    await page.waitForURL(new RegExp(`/console/cases/${session.case_id}$`));
    assert.match(await page.locator('.side-by-side').first().innerText(), /Why it matched[^]*The list entry[^]*Entry id\s+10001/);
    await shoot(page, '03-case');

    await page.getByLabel('Cleared: not the listed party').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    assert.equal(await page.locator(':focus').getAttribute('id'), 'reason');
    await page.keyboard.type('A Lebanese engineer born 1988; passport checked at the desk.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?done=applied$/);
    assert.match(await page.getByRole('status').innerText(), /Your decision is applied\./);

    await page.getByRole('link', { name: 'Visitors on site' }).click();
    const plant = page.getByRole('region', { name: 'Plant 7 (1)' });
    // No citizenship was given, and no country flag holds: the roll-call's columns say so.
    assert.match(await plant.innerText(), /Karim Yusuf Abu-Ali\s+none\s+Example Trading Co\., Ltd\.\s+R\. Alvarez\s+V-0042/);
    assert.match(await plant.innerText(), /checked in/);
    assert.equal((await api(keys.own, 'GET', `/sessions/${session.id}`)).status, 'checked_in');
    await shoot(page, '04-visitors');
    // Printed, the roll-call is the list alone, with a column to tick.
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.site-header').isVisible(), false);
    assert.equal(await page.getByRole('columnheader', { name: 'Accounted for' }).isVisible(), true);
    await shoot(page, '04-visitors-printed');
    await page.emulateMedia({ media: 'screen' });
  });

  test('four-eyes: one adjudicator proposes DENIED, a second person confirms it', async () => {
    await api(keys.own, 'PUT', '/adjudication/rules', { four_eyes: { denied: true } });
    const session = await api(keys.own, 'POST', '/checkin', { visitor: { name: 'Karim Yusuf Abu-Ali', citizenship: 'LB' }, site: 'Plant 7' });
    const bob = await pageOf('bob');
    await bob.goto(`/console/cases/${session.case_id}`);
    await bob.getByLabel('Denied: the listed party, or too close to admit').check();
    await bob.getByLabel('Reason').fill('Same name and citizenship as SDN entry 10001.');
    await bob.getByRole('button', { name: 'Apply the decision' }).click();
    await bob.waitForURL(/\?done=pending$/);
    assert.match(await bob.getByRole('note').innerText(), /DENIED proposed by you/);

    const alice = await pageOf('alice');
    await alice.goto(`/console/cases/${session.case_id}`);
    assert.match(await alice.getByRole('note').innerText(), /DENIED proposed by bob@example\.com[^]*To confirm it, choose DENIED/);
    assert.equal(await alice.getByLabel('Denied: the listed party, or too close to admit').isChecked(), true);
    await shoot(alice, '05-case-pending-second-review');
    await alice.getByLabel('Reason').fill('Confirmed: the passport copy matches the listing.');
    await alice.getByRole('button', { name: 'Apply the decision' }).click();
    await alice.waitForURL(/\?done=applied$/);
    assert.match(await alice.locator('.case-summary').innerText(), /Status\s+DENIED/);
    assert.equal((await api(keys.own, 'GET', `/sessions/${session.id}`)).status, 'denied');
  });

  test('a Defense-tier site runs its door in the console: denies one held visitor, releases another, checks them out', async () => {
    const held = async (name: string, citizenship: string) => {
      const session = await api(keys.defense, 'POST', '/checkin', { visitor: { name, citizenship }, site: 'Dry Dock 2' });
      assert.equal(session.status, 'pending_review');
      return session;
    };
    const first = await held('Karim Yusuf Abu-Ali', 'IR');
    const second = await held('Karim Abu Ali', 'LB');
    const dana = await setPassword('dana');
    const nav = await dana.getByRole('navigation').first().innerText();
    assert.match(nav, /Queue[^]*Visitors on site/);
    assert.doesNotMatch(nav, /Audit log|Webhooks|API keys/, 'only what the tier and the role allow');

    await dana.goto('/console/visitors');
    const waiting = await dana.getByRole('region', { name: 'Waiting at the door (2)' }).innerText();
    for (const name of ['Karim Yusuf Abu-Ali', 'Karim Abu Ali']) assert.match(waiting, new RegExp(`${name} at Dry Dock 2: pending review`));
    await shoot(dana, '11-defense-waiting');
    const decide = async (session: Record<string, string>, label: string, reason: string) => {
      await dana.goto('/console/visitors');
      await dana.locator(`a[href="/console/cases/${session.case_id}"]`).click();
      await dana.getByLabel(label).check();
      await dana.getByLabel('Reason').fill(reason);
      await dana.getByRole('button', { name: 'Apply the decision' }).click();
      await dana.waitForURL(/\?done=applied$/);
    };
    await decide(first, 'Denied: the listed party, or too close to admit', 'Same name, an Iranian national: the listed commander.');
    await decide(second, 'Cleared: not the listed party', 'A Lebanese student born 2001; passport seen.');
    assert.deepEqual(
      [(await api(keys.defense, 'GET', `/sessions/${first.id}`)).status, (await api(keys.defense, 'GET', `/sessions/${second.id}`)).status],
      ['denied', 'checked_in'],
    );

    await dana.goto('/console/visitors');
    assert.match(await dana.getByRole('region', { name: 'Dry Dock 2 (1)' }).innerText(), /Karim Abu Ali/);
    assert.match(await dana.getByRole('region', { name: 'Waiting at the door (0)' }).innerText(), /Nobody is waiting on a decision\./);
    await dana.getByRole('button', { name: 'Check out Karim Abu Ali' }).click();
    await dana.waitForURL(/\?done=checked_out$/);
    assert.match(await dana.getByRole('status').innerText(), /The visitor is checked out\./);
    assert.equal((await api(keys.defense, 'GET', `/sessions/${second.id}`)).status, 'checked_out');
    await shoot(dana, '12-defense-checked-out');
  });

  test('a viewer sees a case but cannot decide it, nor open the API keys', async () => {
    const { case_id: caseId } = await api(keys.own, 'POST', '/prescreen', { subject: 'Karim Abu-Ali', company: 'Viewer Test' });
    const victor = await pageOf('victor');
    await victor.goto(`/console/cases/${caseId}`);
    assert.match(await victor.locator('main').innerText(), /You have the viewer role: you can look at cases but not decide them\./);
    assert.equal(await victor.getByLabel('Reason').count(), 0);
    // The form the page does not offer, sent anyway with the page's own CSRF token.
    const refused = await postForm(victor, `/console/cases/${caseId}/disposition`, { disposition: 'CLEARED', reason: 'Viewer trying.' });
    assert.equal(refused.status, 403);
    assert.match(
      refused.text,
      /needs a person with the admin role, a person with the adjudicator role, an admin API key or a standard API key; this request comes from a person with the viewer role/,
    );
    assert.equal((await victor.goto('/console/api-keys'))?.status(), 403);
    assert.equal((await api(keys.own, 'GET', `/adjudication/${caseId}`)).status, 'OPEN');
    await victor.goto('/console/visitors');
    assert.match(await victor.getByRole('region', { name: 'Plant 7 (1)' }).innerText(), /Karim Yusuf Abu-Ali/);
    assert.equal(await victor.getByRole('button', { name: /^Check out/ }).count(), 0, 'a viewer is offered no check-out');
  });

  test('a form with a forged CSRF token is refused', async () => {
    const { case_id: caseId } = await api(keys.own, 'POST', '/prescreen', {
      subject: 'Karim Yusuf Abu-Ali',
      date_of_birth: '1961-02-12',
      company: 'CSRF Test',
    });
    const alice = await pageOf('alice');
    await alice.goto(`/console/cases/${caseId}`);
    const refused = await postForm(alice, `/console/cases/${caseId}/disposition`, { disposition: 'CLEARED', reason: 'Forged.' }, 'forged-token');
    assert.equal(refused.status, 403);
    assert.match(refused.text, /This form did not come from a console page of this server/);
    assert.equal((await api(keys.own, 'GET', `/adjudication/${caseId}`)).status, 'OPEN');
  });

  test("another organization's case id is not found", async () => {
    const { case_id: theirs } = await api(keys.other, 'POST', '/prescreen', { subject: 'Karim Yusuf Abu-Ali' });
    const alice = await pageOf('alice');
    const response = await alice.goto(`/console/cases/${theirs}`);
    assert.equal(response?.status(), 404);
    assert.match(await alice.locator('main').innerText(), /There is no case case_\w+ in your organization\./);
    await shoot(alice, '06-not-found');
  });

  test('the admin pages; every control on every page has a name', async () => {
    await api(keys.own, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['visitor.checked_in'], description: 'badge system' });
    await api(keys.own, 'POST', '/checkin', { visitor: { name: 'Ana Novak', company: 'Ljubljana Optics' }, site: 'HQ' });
    const alice = await pageOf('alice');
    const unnamed: string[] = [];
    for (const [name, url] of [
      ['07-audit', '/console/audit'],
      ['08-webhooks', '/console/webhooks'],
      ['09-api-keys', '/console/api-keys'],
      ['02-queue', '/console/queue'],
      ['04-visitors', '/console/visitors'],
    ]) {
      assert.equal((await alice.goto(url as string))?.status(), 200, url);
      unnamed.push(...(await unlabelledControls(alice)).map((c) => `${url}: ${c}`));
      if (name !== '02-queue' && name !== '04-visitors') await shoot(alice, name as string);
    }
    await alice.goto('/console/audit');
    assert.match(await alice.getByRole('status').innerText(), /The hash chain holds: all \d+ events were re-checked/);
    await alice.goto('/console/webhooks');
    assert.match(await alice.getByRole('region', { name: /127\.0\.0\.1:9\/hook/ }).innerText(), /badge system[^]*visitor\.checked_in\s+evt_\w+\s+pending/);
    await alice.goto('/console/api-keys');
    await alice.getByLabel('Name', { exact: true }).fill('lobby kiosk');
    await alice.getByRole('button', { name: 'Create the key' }).click();
    assert.match(await alice.getByLabel('The new key').inputValue(), /^gk_live_/);
    await shoot(alice, '10-api-key-created');
    for (const [who, url] of [
      ['bob', '/console/queue'],
      ['victor', '/console/visitors'],
    ] as const) {
      const page = await pageOf(who);
      await page.goto(url);
      unnamed.push(...(await unlabelledControls(page)).map((c) => `${url}: ${c}`));
    }
    const caseLink = alice.getByRole('link', { name: /Karim/ }).first();
    await alice.goto('/console/queue');
    await caseLink.click();
    unnamed.push(...(await unlabelledControls(alice)).map((c) => `case: ${c}`));
    assert.deepEqual(unnamed, []);
  });
});
