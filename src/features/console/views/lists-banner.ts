/**
 * The banner atop every console page while the lists are not all current (the freshness report
 * is degraded): which lists are past their maximum age and which sources keep failing, in plain
 * words, so that whoever decides a case knows what it was screened against.
 */
import { describeHours, type FreshnessReport } from '../../../lists/freshness.ts';
import { type Html, html } from '../html.ts';

const HOUR_MS = 3_600_000;

export function listsBanner(report: FreshnessReport, now: Date): Html | undefined {
  if (!report.degraded) return undefined;
  const stale = report.lists.filter((l) => l.stale);
  const failing = report.sources.filter((s) => s.failing);
  const since = (date: Date) => describeHours((now.getTime() - date.getTime()) / HOUR_MS);
  return html`<section class="lists-banner" aria-label="Restricted-party lists">
<p><strong>Some restricted-party lists are not current.</strong></p>
<ul>
${stale.map(
  (l) =>
    html`<li><strong>${l.list}</strong> was last confirmed current ${describeHours(l.ageHours)} ago (at most ${describeHours(l.maxAgeHours)} allowed); screenings still run against it, and each records that it was stale.</li>`,
)}
${failing.map(
  (s) =>
    html`<li>The checks of <strong>${s.label}</strong> (${s.lists.join(', ')}) failed ${s.consecutiveFailures} times in a row; ${
      s.lastSuccessAt ? `the last success was ${since(s.lastSuccessAt)} ago` : 'none has succeeded yet'
    }. Its lists stay as they were until a check succeeds.</li>`,
)}
</ul>
<p>An administrator finds the reasons in <code>GET /api/v1/lists</code> and the service log.</p>
</section>`;
}
