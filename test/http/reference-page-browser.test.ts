/**
 * The API reference at /api/docs in a real browser (Debian's chromium): it loads under its own
 * strict Content-Security-Policy with nothing refused (the style sheet is allowed by its hash, and
 * there is nothing else), the navigation reaches every operation, descriptions are rendered
 * Markdown (the permission table is a table), bodies are field tables with their examples, and
 * named schemas are linked. Screenshots go to a temporary folder named in the test output.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshotDir, skipWithoutChromium } from '../helpers/browser.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const skip = skipWithoutChromium();

describe('the API reference in a browser', { skip }, () => {
  let harness: TestApp;
  let browser: Browser;
  let page: Page;
  const refused: string[] = [];

  before(async () => {
    harness = await buildTestApp();
    const origin = await harness.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    page = await browser.newPage();
    // A style or script the policy refuses is reported on the console as a violation.
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const response = await page.goto(`${origin}/api/docs`);
    assert.equal(response?.status(), 200);
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('it loads under its policy with its style applied and nothing refused', async () => {
    assert.deepEqual(refused, []);
    // The browser's own function, typed loosely: this project's TypeScript does not load the DOM's types.
    const navColumn = await page
      .locator('nav')
      .first()
      .evaluate((nav) => (globalThis as unknown as { getComputedStyle(e: unknown): { position: string } }).getComputedStyle(nav).position);
    assert.equal(navColumn, 'sticky', 'the style sheet applies');
    const shots = screenshotDir();
    await page.screenshot({ path: path.join(shots, 'reference-top.png') });
    process.stdout.write(`# reference screenshots: ${shots}\n`);
  });

  test('the navigation reaches each operation, grouped by tag', async () => {
    const links = page.getByRole('navigation', { name: 'Reference' }).getByRole('link');
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    const operations = hrefs.filter((href) => /^#(get|post|put|patch|delete)-/.test(href));
    assert.ok(operations.length >= 40, `${operations.length} operations in the navigation`);
    for (const href of operations) assert.equal(await page.locator(`[id="${href.slice(1)}"]`).count(), 1, href);
    await page
      .getByRole('navigation', { name: 'Reference' })
      .getByRole('link', { name: /Screen a person or an organization/ })
      .first()
      .click();
    assert.match(page.url(), /#post--api-v1-prescreen$/);
  });

  test('descriptions are Markdown: the permission table is a table, code is code', async () => {
    const overview = page.locator('main');
    const headers = await overview.locator('#overview ~ table th').allInnerTexts();
    assert.ok(
      headers.some((text) => /adjudicator/i.test(text)),
      `the permission table's header: ${headers.slice(0, 8).join(' | ')}`,
    );
    assert.equal(await page.locator('main p').filter({ hasText: '**' }).count(), 0, 'no Markdown left unrendered');
  });

  test('a body is a field table with its example, and a named schema is linked', async () => {
    const prescreen = page.locator('section[id="post--api-v1-prescreen"]');
    const fields = prescreen.locator('h4:has-text("Request body") + table');
    assert.match(await fields.innerText(), /^subject\s+string\s+no\s+The person's full name/m);
    assert.ok((await prescreen.locator('details pre').count()) > 0, 'an example is shown');
    const link = prescreen.getByRole('link', { name: 'Screening' }).first();
    await link.click();
    assert.match(page.url(), /#schema-Screening$/);
    await page.screenshot({ path: path.join(screenshotDir(), 'reference-schema.png') });
  });
});
