/**
 * A stored ownership determination in a real browser (chromium, the service as its own process):
 * two SDN-listed owners hold 30% and 25% of a Cyprus holding company that owns the target. The
 * page shows the status and the verified record hash, and the graph loads as an image under the
 * console's Content-Security-Policy with every name escaped; the page goes to the screenshots.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { skipWithoutChromium } from '../../helpers/browser.ts';
import { consoleInBrowser, type Person } from './browser-harness.ts';

const skip = skipWithoutChromium();
const people = { olga: { email: 'olga@example.com', role: 'viewer', home: 'own' } } as const satisfies Record<string, Person>;

const TWO_LISTED_OWNERS = {
  target: 'T',
  as_of: '2026-11-24',
  screen_names: false,
  store: true,
  entities: [
    { id: 'O1', name: 'Example Oligarch', type: 'person', designations: [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'] }] },
    { id: 'O2', name: 'Ferrum Trading <Group> & Co', type: 'entity', country: 'RU', designations: [{ list: 'OFAC_SDN', programs: ['UKRAINE-EO13662'] }] },
    { id: 'CY', name: 'Helios Holdings Ltd', type: 'entity', country: 'CY' },
    { id: 'M', name: 'Minority Holder', type: 'person', country: 'GR' },
    { id: 'T', name: 'Target Components LLC', type: 'entity', country: 'AE' },
  ],
  ownerships: [
    { owner: 'O1', owned: 'CY', percent: 30 },
    { owner: 'O2', owned: 'CY', percent: 25 },
    { owner: 'M', owned: 'CY', percent: 45 },
    { owner: 'CY', owned: 'T', percent: 100 },
  ],
};

describe('an ownership determination in a browser', { skip }, () => {
  const { keys, api, shoot, setPassword } = consoleInBrowser(people);

  test('the page shows the status and the verified hash, and the graph loads as an image under the CSP', async () => {
    const checked = await api(keys.own, 'POST', '/ownership/check', TWO_LISTED_OWNERS);
    const page = await setPassword('olga');
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`/console/ownership/${checked.id}`);
    assert.match(await page.locator('main').innerText(), /Blocked under OFAC’s 50 Percent Rule[\s\S]*verified/);
    const graph = page.getByRole('img', { name: /The ownership graph: 5 parties and 4 stakes/ });
    await graph.waitFor();
    // Decoded first: a refused or broken image has no natural size.
    const size = await graph.evaluate((element) => {
      const img = element as unknown as { decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
      return img.decode().then(() => [img.naturalWidth, img.naturalHeight]);
    });
    assert.ok((size[0] as number) > 200 && (size[1] as number) > 100, `the graph image has a size: ${size}`);
    assert.deepEqual(blocked, [], 'nothing the page loads is refused by its Content-Security-Policy');
    await shoot(page, '41-ownership-determination');

    // The image itself, drawn alone.
    const shot = await graph.screenshot();
    const svg = await page.request.get(`/console/ownership/${checked.id}/graph.svg`);
    assert.equal(svg.headers()['content-type'], 'image/svg+xml; charset=utf-8');
    assert.match(await svg.text(), /Ferrum Trading &lt;Group&gt; &amp; Co/);
    assert.ok(shot.length > 5_000, 'the graph rendered to a picture with content');
  });
});
