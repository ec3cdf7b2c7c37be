/**
 * Debian's chromium, driven by playwright-core (which never downloads a browser here). Outside CI
 * a test that needs it is skipped with a message saying so when it is absent; in CI (CI=true) its
 * absence fails the run, so a green CI always means the console was tested in a browser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const chromiumPath = (): string => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `false` when chromium is there; otherwise the skip message (or a thrown error in CI). */
export function skipWithoutChromium(): string | false {
  if (fs.existsSync(chromiumPath())) return false;
  const where = `${chromiumPath()} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`CI needs chromium for the browser tests, and it is not at ${where}`);
  return `skipped: chromium is not at ${where}`;
}

/**
 * Headless, no GPU, nothing fetched in the background. playwright gives each launch a fresh
 * `--user-data-dir` of its own (a new temporary profile, removed at close).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    chromiumSandbox: false,
    args: [
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where a run's screenshots go: a new temporary folder, never the repository. */
export const screenshotDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-console-screens-'));

/** The little of the DOM the check below reads (this program is typed for Node, not for a page). */
type Control = {
  tagName: string;
  hidden: boolean;
  outerHTML: string;
  textContent: string | null;
  labels?: { length: number } | null;
  getAttribute(name: string): string | null;
};
declare const document: { querySelectorAll(selectors: string): Iterable<Control> };

/**
 * Every form control a person can reach has an accessible name (a label, aria-label or
 * aria-labelledby; a button its text): the names of those that do not.
 */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('input:not([type="hidden"]), select, textarea, button')]
      .filter((control) => !control.hidden)
      .filter((control) => {
        if (control.getAttribute('aria-label') || control.getAttribute('aria-labelledby')) return false;
        if (control.tagName === 'BUTTON') return (control.textContent ?? '').trim() === '';
        return (control.labels?.length ?? 0) === 0;
      })
      .map((el) => el.outerHTML),
  );
}
